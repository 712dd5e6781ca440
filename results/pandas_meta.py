"""pandas metadata for the study tables' Parquet files: ``pandas.read_parquet`` (and
pyarrow's ``to_pandas``) restore the dtypes it names, so integer and boolean columns come
back as pandas' nullable ``Int8``/``Int32``/``Int64``/``UInt64``/``boolean`` (a null seat
column stays an integer column, not float64 or object) and dictionary columns as
categoricals. Written into every file's schema metadata under the key ``pandas``, as pandas
itself writes it."""

import functools

import pyarrow as pa


def nullable_dtype(arrow_type):
    """pandas' nullable dtype for an Arrow integer or boolean type, else None."""
    import pandas as pd

    table = {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.uint64(): pd.UInt64Dtype(),
        pa.bool_(): pd.BooleanDtype(),
    }
    return table.get(arrow_type)


@functools.cache
def _metadata(schema: pa.Schema) -> bytes | None:
    try:
        import pandas  # noqa: F401
    except ImportError:  # pandas is optional: the files are complete without the hint
        return None
    df = schema.empty_table().to_pandas(types_mapper=nullable_dtype)
    return pa.Schema.from_pandas(df, preserve_index=False).metadata[b"pandas"]


def pandas_metadata(schema: pa.Schema) -> dict:
    """``{b"pandas": ...}`` for a table of ``schema`` (one of results.schema's ``SCHEMAS``,
    passed in so this module stays below the schema); empty without pandas."""
    md = _metadata(schema)
    return {b"pandas": md} if md else {}
