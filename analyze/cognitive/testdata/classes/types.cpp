// Rule: template parameters and rvalue references are types.
// cognitive: move 0
template <typename T, typename = std::enable_if_t<std::is_move_constructible_v<T> && true>>
T move(T&& a) {
    return static_cast<T&&>(a);
}
