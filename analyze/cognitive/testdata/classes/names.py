# Rule: Python's soft keywords (match, case) used as names.
# cognitive: soft 1
def soft(pattern, line):
    match = pattern.match(line)
    case = match.group(1)
    if match:  # +1
        return case
# cognitive: statement 1
def statement(cmd):
    match cmd:  # +1
        case "a":
            return 1
