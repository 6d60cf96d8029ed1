"""The Layer classes of paddle.nn."""
