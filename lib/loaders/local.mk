# lib/loaders
