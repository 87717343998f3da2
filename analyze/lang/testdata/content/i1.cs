Object subclass: #A!
foo ^1!
