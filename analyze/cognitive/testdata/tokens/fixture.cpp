// Hand-scored fixture (docs/analyze.md).
#include <vector>
#include <stdexcept>

namespace fx {

class Shape {
public:
    // cognitive: area 1 params 0
    virtual double area() const {
        return w > 0 ? w * h : 0; // +1
    }
    double w = 0, h = 0;
};

// cognitive: branches 3 params 2 nesting 1
int branches(int a, int b) {
    if (a > b) { // +1
        return 1;
    } else if (a < b) { // +1
        return 2;
    } else { // +1
        return 3;
    }
}

// cognitive: loops 8 nesting 2
template <typename T>
void loops(std::vector<T>& xs) noexcept(false) {
    for (auto& x : xs) { // +1
        while (x > 0) { // +2
            --x;
        }
    }
    try {
        run();
    } catch (const std::exception& e) { // +1
        if (xs.empty()) { // +2
            throw;
        }
    } catch (...) { // +1
    }
    switch (xs.size()) { // +1
    case 0:
        break;
    }
}

// cognitive: lambdas 2
int lambdas(std::vector<int> xs) {
    auto f = [&](int x) { // nesting +1
        if (x > 0) { // +2
            return 1;
        }
        return 0;
    };
    return f(xs[0]);
}

// cognitive: fact 2 params 1
long fact(long n) {
    if (n <= 1) return 1; // +1
    return n * fact(n - 1); // +1
}

// cognitive: logic 3
bool logic(bool a, bool b, bool c, bool d) {
    bool y = f(a || b); // +1
    return a && b && c || d; // +1 +1
}

}  // namespace fx

namespace fx {
// cognitive: more 6 params 1 nesting 2
int more(int n) {
    int i = 0;
    do { // +1
        if (i % 2 == 0) { // +2
            continue; // a plain continue: 0
        }
        if (i > 100) goto out; // +2, goto +1
    } while (++i < n);
    return n;
out:
    return -1;
}
}  // namespace fx
