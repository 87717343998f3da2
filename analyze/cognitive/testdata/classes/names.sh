# Rule: words named like keywords as arguments (echo done fi) close nothing.
# cognitive: words 1
words() {
  if true; then # +1
    echo done fi esac
  fi
}
