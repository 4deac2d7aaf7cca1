// Cluster tests drive several processes through real faults; a step can take tens of seconds.
jest.setTimeout(300_000);
