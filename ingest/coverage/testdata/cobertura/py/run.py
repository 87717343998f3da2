import sys

sys.path.insert(0, "src")
from shapes import area
from shapes.area import Box

print(area("square", 2), area("circle", 1))
print(Box(2, 3).volume(4))
