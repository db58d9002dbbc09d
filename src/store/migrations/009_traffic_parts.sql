-- The part of its edge a speed sample was driven on, in metres from the edge's first node (u): a
-- trace that drives part of a long edge gives a sample for that part (workers/traffic/samples.ts),
-- and routes cost the part at the observed speed. Null (earlier samples): the whole edge.
ALTER TABLE traffic_samples ADD COLUMN from_m real, ADD COLUMN to_m real;
