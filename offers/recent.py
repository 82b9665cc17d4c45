"""What a process keeps in its own memory: the values it used last, by key (a thread-safe LRU)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

T = TypeVar("T")


class Recent(Generic[T]):
    """The ``size`` values used last; reading one makes it the most recent. Values are shared
    between the threads that read them: nobody writes into them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, T] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> T | None:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: str, value: T) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
