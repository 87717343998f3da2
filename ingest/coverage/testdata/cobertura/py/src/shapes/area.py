import math


def area(kind, size):
    if kind == "square":
        return size * size
    if kind == "circle":
        return math.pi * size * size
    raise ValueError("unknown shape: " + kind)


class Box:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def volume(self, d):
        return self.w * self.h * d

    def describe(self):
        return "box %dx%d" % (self.w, self.h)
