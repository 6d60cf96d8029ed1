"""The MovieLens 1M ratings dataset, read from ``ml-1m.zip``."""
from __future__ import annotations

import re
import zipfile

import numpy as np

from pagaie.vision.datasets._common import Dataset, resolve

__all__ = ["Movielens"]

_URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
_MD5 = "c4d9eecfca2ab87c1945afe126590906"
age_table = [1, 18, 25, 35, 45, 50, 56]


class MovieInfo:
    """A movie: id, categories and title."""

    def __init__(self, index: str, categories: list[str], title: str) -> None:
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict: dict, movie_title_dict: dict) -> list:
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"

    __repr__ = __str__


class UserInfo:
    """A user: id, gender, age bucket and job id."""

    def __init__(self, index: str, gender: str, age: str, job_id: str) -> None:
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self) -> list:
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self) -> str:
        gender = "M" if self.is_male else "F"
        return f"<UserInfo id({self.index}), gender({gender}), age({age_table[self.age]}), job({self.job_id})>"

    __repr__ = __str__


class Movielens(Dataset):
    """MovieLens 1M: (user id, gender, age, job, movie id, categories, title words, rating).

    Ratings are split at random into train and test with ``numpy.random`` seeded by
    ``rand_seed`` (which reseeds numpy's global generator, as Paddle does). Ratings r become
    ``2 r - 5``. Category and title-word ids follow the iteration order of Python sets, as in
    Paddle, so they are stable within one process.

    Args:
        data_file (str, optional): The ``ml-1m.zip`` archive. Default: None (Paddle's cache).
        mode (str, optional): 'train' or 'test'. Default: 'train'.
        test_ratio (float, optional): Share of ratings in the test split. Default: 0.1.
        rand_seed (int, optional): Seed of the split. Default: 0.
        download (bool, optional): Fetch an absent archive into the cache. Default: True.

    Examples:
        >>> from pagaie.text import Movielens
        >>> Movielens.__name__
        'Movielens'
    """

    def __init__(self, data_file: str | None = None, mode: str = "train", test_ratio: float = 0.1,
                 rand_seed: int = 0, download: bool = True) -> None:
        assert mode.lower() in ("train", "test"), f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = resolve(data_file, download, _URL, _MD5, "sentiment", "paddle.text.Movielens",
                                 "data_file")
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        np.random.seed(rand_seed)
        self._load_meta_info()
        self._load_data()

    def _load_meta_info(self) -> None:
        pattern = re.compile(r"^(.*)\((\d+)\)$")
        self.movie_info, self.movie_title_dict, self.categories_dict, self.user_info = {}, {}, {}, {}
        title_words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            with package.open("ml-1m/movies.dat") as f:
                for line in f:
                    movie_id, title, cats = line.decode(encoding="latin").strip().split("::")
                    cats = cats.split("|")
                    categories.update(cats)
                    title = pattern.match(title).group(1)
                    self.movie_info[int(movie_id)] = MovieInfo(index=movie_id, categories=cats, title=title)
                    title_words.update(w.lower() for w in title.split())
            self.movie_title_dict = {w: i for i, w in enumerate(title_words)}
            self.categories_dict = {c: i for i, c in enumerate(categories)}
            with package.open("ml-1m/users.dat") as f:
                for line in f:
                    uid, gender, age, job, _ = line.decode(encoding="latin").strip().split("::")
                    self.user_info[int(uid)] = UserInfo(index=uid, gender=gender, age=age, job_id=job)

    def _load_data(self) -> None:
        self.data = []
        is_test = self.mode == "test"
        with zipfile.ZipFile(self.data_file) as package, package.open("ml-1m/ratings.dat") as ratings:
            for line in ratings:
                if (np.random.random() < self.test_ratio) != is_test:
                    continue
                uid, mov_id, rating, _ = line.decode(encoding="latin").strip().split("::")
                mov, usr = self.movie_info[int(mov_id)], self.user_info[int(uid)]
                self.data.append(usr.value() + mov.value(self.categories_dict, self.movie_title_dict)
                                 + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx: int) -> tuple:
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
