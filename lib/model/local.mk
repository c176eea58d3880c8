# lib/model
