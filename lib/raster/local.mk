# lib/raster
