phase,us,count
deterministic kernel,900.0,384
ordered merge,100.0,384
