// Rule: members after . -> ::, and rvalue references (T&&) are no operators.
// cognitive: forward 2
template <typename T> void forward(T&& x, std::vector<T>&& v) {
    auto&& y = std::forward<T>(x);
    auto l = [](auto&& a, const T&& b) { return a; };
    std::for_each(v.begin(), v.end(), l);
    if (x && y) {} // +1 if, +1 &&
}
