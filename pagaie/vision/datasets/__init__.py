"""paddle.vision.datasets: image datasets read from Paddle's file layouts."""
from pagaie.vision.datasets.cifar import Cifar10, Cifar100  # noqa: F401
from pagaie.vision.datasets.flowers import Flowers  # noqa: F401
from pagaie.vision.datasets.folder import DatasetFolder, ImageFolder  # noqa: F401
from pagaie.vision.datasets.mnist import MNIST, FashionMNIST  # noqa: F401
from pagaie.vision.datasets.voc2012 import VOC2012  # noqa: F401

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Flowers", "Cifar10", "Cifar100",
           "VOC2012"]
