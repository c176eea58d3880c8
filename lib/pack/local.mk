# lib/pack — owned by the pack work (issue 4)
