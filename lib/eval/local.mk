# lib/eval
