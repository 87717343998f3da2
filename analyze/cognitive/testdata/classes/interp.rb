# Rule: Ruby "#{…}" interpolations hold code; '#{…}' is text.
# cognitive: msg 1
def msg(a)
  "#{a ? 1 : 2}" + '#{a ? 1 : 2}' # +1 ?: (the second is a plain string)
end
