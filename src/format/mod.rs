//! Format loaders: each turns a file's bytes into core [`SkeletonData`].
