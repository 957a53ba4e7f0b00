"""Everything simulated: the simulated table rig, the bots, the demo, and the person who
enrols tiles on the simulated table. Used by the demo, `run --sim`, tests and benchmarks."""
