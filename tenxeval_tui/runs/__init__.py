"""Running evaluations for every front end: the worker process and its protocol, the live
run state, the watch policy, custom criteria modules. No UI."""
