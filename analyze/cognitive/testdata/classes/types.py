# Rule: type-level syntax is not code: annotations, type aliases (type X =
# …, Alias = Callable[…]), a string annotation holding "if … else" and
# the | of a union score nothing.
from typing import Callable, Optional

type Pair = tuple[int, int]
Alias = Callable[[int], Optional[int]]


# cognitive: f 1 params 2
def f(x: int | None = None, g: Callable[[int], bool] = lambda v: v > 0) -> Optional[int]:
    y: dict[str, list[int]] = {}
    return x if g(x) else None  # +1 conditional expression


# cognitive: h 0 params 1
def h(x: "A if B else C") -> None:
    pass
