# comment
x = 1 # t
=begin
doc
=end
def f
  "#{x}"
end
