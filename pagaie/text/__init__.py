"""paddle.text: text datasets and Viterbi decoding."""
from pagaie.text import datasets  # noqa: F401
from pagaie.text.datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing  # noqa: F401
from pagaie.text.viterbi_decode import ViterbiDecoder, viterbi_decode  # noqa: F401

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16",
           "ViterbiDecoder", "viterbi_decode"]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
