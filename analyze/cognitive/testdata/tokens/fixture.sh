#!/bin/sh
# Hand-scored fixture (docs/analyze.md).

# cognitive: branches 3 nesting 1
branches() {
  if [ "$1" -gt "$2" ]; then # +1
    echo 1
  elif [ "$1" -lt "$2" ]; then # +1
    echo 2
  else # +1
    echo 3
  fi
}

# cognitive: loops 7 nesting 3
function loops {
  for x in "$@"; do # +1
    while [ "$x" -gt 0 ]; do # +2
      x=$((x - 1))
      until [ "$x" -lt 5 ]; do # +3
        x=$((x - 1))
      done
    done
  done
  case "$1" in # +1
    a) echo a ;;
    *) echo other ;;
  esac
}

# cognitive: logic 2
logic() {
  [ -n "$1" ] && [ -n "$2" ] && echo yes || echo no # && +1, || +1
}

# cognitive: fact 2
fact() {
  if [ "$1" -le 1 ]; then # +1
    echo 1
    return
  fi
  fact $(($1 - 1)) # recursion +1
}

# cognitive: nested 4
nested() {
  if true; then # +1
    if false; then echo x; fi # +2
    echo "# not a comment" && echo y # +1
  fi
}

# cognitive: more 6 nesting 2
more() {
  for a in 1 2; do # +1
    for b in 3 4; do # +2
      [ "$a" = "$b" ] && break 2 # && +1, break 2 +1
    done
  done
  select opt in x y; do # +1
    break # 0
  done
}
