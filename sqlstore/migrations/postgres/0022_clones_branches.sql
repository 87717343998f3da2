-- Duplicated blocks (docs/ingest.md, "Analysis"): each clone of a
-- snapshot's analysis as two rows, one per place (side 0 the earlier copy,
-- side 1 the later), so that a file's blocks are found by path.
CREATE TABLE snapshot_clones (
    snapshot_seq BIGINT NOT NULL REFERENCES snapshots (seq) ON DELETE CASCADE,
    clone        BIGINT NOT NULL, -- the clone's index in the upload
    side         BIGINT NOT NULL CHECK (side IN (0, 1)),
    path         TEXT COLLATE "C" NOT NULL,
    start_line   BIGINT NOT NULL,
    end_line     BIGINT NOT NULL,
    lines        BIGINT NOT NULL, -- the block's length as the analyzer counts it
    PRIMARY KEY (snapshot_seq, clone, side)
);
CREATE INDEX snapshot_clones_path ON snapshot_clones (snapshot_seq, path);
