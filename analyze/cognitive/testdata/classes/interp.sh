# Rule: "$(…)" holds commands; ${x:-…} is a default value (null-coalescing: nothing) whose text may hold $(…).
# cognitive: msg 2
msg() {
  x="$(if [ -n "$1" ]; then echo 1; fi)" # +1 if
  y="${2:-$(while false; do :; done)}"   # +1 while
}
