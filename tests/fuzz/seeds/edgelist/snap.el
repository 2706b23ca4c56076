# SNAP style
0 1
1 2	3.5
2 0

% c
5 5
