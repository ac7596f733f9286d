"""The confusion-matrix engine: validated input in, (q+1, q+1) matrices out.

- ``_dispatch``: the methods, the run on validated targets (a ``Targets``),
  the dense/sparse/dask choice, the output form (dense, CSR, normalised);
- ``_record``: the result record and the label supports the report needs;
- ``_heydarian``: Heydarian, Doyle and Samavi (2022), Algorithms 2-5 and eq. 16;
- ``_krstinic``: Krstinić et al. (2020), Algorithm 1;
- ``_single_label``: 1-D class labels, where both papers add one cell per
  instance: a histogram of the (true, predicted) pairs;
- ``_samples``: each instance's set sizes (|T|, |P|, |T & P|), counted in the
  kernels' pass over the rows, kept as a table that adds up: the samples
  average's sufficient statistic;
- ``_bits``: bit-sliced popcounts (and their NumPy 1.x fallback), rows grouped
  by an integer key, per-row set sizes: the integer engine of the dense kernels;
- ``_sparse``: CSR helpers shared by both kernels: the matrix as one product;
- ``_chunking``: row blocks, the thread pool, per-thread work buffers, BLAS
  held to one thread;
- ``_dask``: dask arrays, one count per chunk of rows;
- ``_array_api``: Array API arrays on their own device (a GPU's, say): both
  kernels as matrix products of the indicator parts, in blocks of rows, so
  that only the (q+1, q+1) matrix and the set sizes' table reach the host.

This package imports nothing from the public modules above it.
"""
