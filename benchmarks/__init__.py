"""`make bench`: every `benchmarks/bench_*.py` module, one table, also written as JSON."""
