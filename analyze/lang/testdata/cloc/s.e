This text before the code block is a comment.
<'
struct packet {
    -- an e comment
    data : uint; // a C++ comment
};
'>
Text after the block.
