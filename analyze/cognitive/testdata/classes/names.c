/* Rule: a member named like a keyword (after . or ->) is not control flow. */
struct s { int if_; int do_; };
/* cognitive: members 1 */
int members(struct s *p, struct s q) {
    if (p->if_) { /* +1 */
        return q.do_;
    }
    return 0;
}
