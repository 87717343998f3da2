# Hand-scored fixture (docs/analyze.md).
import os


# cognitive: branches 3 params 2 nesting 1
def branches(a, b):
    if a:  # +1
        return 1
    elif b:  # +1
        return 2
    else:  # +1
        return 3


# cognitive: loops 7 nesting 2
def loops(xs):
    for x in xs:  # +1
        while x > 0:  # +2
            x -= 1
    try:
        go()
    except ValueError:  # +1
        if xs:  # +2
            raise
    finally:
        pass
    match xs:  # +1
        case []:
            pass


# cognitive: logic 3
def logic(a, b, c, d):
    y = f(a or b)  # +1
    return a and b and c or d  # +1 +1


# cognitive: ternary 4
def ternary(a, b):
    x = 1 if a else 2  # +1
    if b:  # +1
        ys = [v for v in b if v]  # comprehension: 0
        return x if a else 0  # +2 (nesting 1)
    return x


# cognitive: fact 2 params 1
def fact(n):
    if n <= 1:  # +1
        return 1
    return n * fact(n - 1)  # recursion +1


class A:
    # cognitive: method 2 params 2
    def method(self, a, b=(1,
                           2)):
        def inner():  # nesting +1
            if a:  # +2
                return 1
        return inner()


# cognitive: continued 2
def continued(a,
              b):
    if (a and  # +1 +1
            b):
        return 1


# cognitive: more 6 params 1 nesting 2
def more(xs):
    f = lambda v: 1 if v else 0  # a lambda (nesting +1): conditional +2
    for x in xs:  # +1
        if x:  # +2
            break
    else:  # +1
        pass
    with open("x") as fh:  # 0
        return f(fh)
