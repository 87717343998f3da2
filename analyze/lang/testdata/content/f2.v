Theorem t : True.
Proof. auto. Qed.
