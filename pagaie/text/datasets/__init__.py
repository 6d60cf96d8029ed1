"""paddle.text.datasets: text datasets read from Paddle's file layouts."""
from pagaie.text.datasets.conll05 import Conll05st  # noqa: F401
from pagaie.text.datasets.imdb import Imdb  # noqa: F401
from pagaie.text.datasets.imikolov import Imikolov  # noqa: F401
from pagaie.text.datasets.movielens import Movielens  # noqa: F401
from pagaie.text.datasets.uci_housing import UCIHousing  # noqa: F401
from pagaie.text.datasets.wmt14 import WMT14  # noqa: F401
from pagaie.text.datasets.wmt16 import WMT16  # noqa: F401

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
