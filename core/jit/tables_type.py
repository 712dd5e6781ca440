"""numba's view of core.tables.Tables: a pointer to the packed array headers.

Compiled code receives one pointer; ``T.<field>`` loads that field's array header (meminfo,
parent, item count, item size, data, shape, strides: numba's array layout) from the packed
buffer. The loads are marked invariant (the tables never change while a kernel runs), so
LLVM may hoist them out of loops. The headers' meminfo is null: Python owns the arrays, and
numba's reference counting skips null meminfos, so the type works in functions compiled
with or without the runtime (``_nrt``). Only numba's public extension API is used.
"""

import hashlib

from llvmlite import ir
from numba.core import cgutils, types
from numba.core.datamodel import models
from numba.core.extending import (
    NativeValue,
    lower_getattr_generic,
    register_model,
    typeof_impl,
    unbox,
)
from numba.core.imputils import impl_ret_borrowed
from numba.core.typing.templates import AttributeTemplate, infer_getattr

from core.tables import TABLE_FIELDS, Tables


class TablesType(types.Type):
    """One type per tuple of field (name, array type): the content of one simulator build."""

    def __init__(self, fields):
        self.fields = tuple(fields)
        self.field_dict = dict(self.fields)
        self.index = {name: i for i, (name, _) in enumerate(self.fields)}
        inner = ", ".join(f"{n}: {t}" for n, t in self.fields)
        self._digest = hashlib.sha1(inner.encode()).hexdigest()[:12]
        super().__init__(name=f"Tables({inner})")

    @property
    def mangling_args(self):
        """A short symbol name: the full name (every field's type) would be spelled out in
        the symbol of every engine function, slowing down every compile."""
        return f"Tables_{self._digest}", ()


@register_model(TablesType)
class TablesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.IntType(8).as_pointer())


@typeof_impl.register(Tables)
def _typeof_tables(val, c):
    ty = val.__dict__["_numba_type"]
    if ty is None:
        from numba import typeof

        ty = TablesType(tuple((n, typeof(val.__dict__[n])) for n in TABLE_FIELDS))
        val.__dict__["_numba_type"] = ty
    return ty


@unbox(TablesType)
def _unbox_tables(typ, obj, c):
    addr = c.pyapi.object_getattr_string(obj, "_addr")
    ptr = c.pyapi.long_as_voidptr(addr)
    c.pyapi.decref(addr)
    return NativeValue(ptr, is_error=cgutils.is_null(c.builder, ptr))


@infer_getattr
class _TablesAttributes(AttributeTemplate):
    key = TablesType

    def generic_resolve(self, typ, attr):
        return typ.field_dict.get(attr)


@lower_getattr_generic(TablesType)
def _tables_getattr(context, builder, typ, val, attr):
    payload = ir.LiteralStructType([context.get_value_type(t) for _, t in typ.fields])
    base = builder.bitcast(val, payload.as_pointer())
    ptr = cgutils.gep_inbounds(builder, base, 0, typ.index[attr])
    header = builder.load(ptr)
    header.set_metadata("invariant.load", builder.module.add_metadata([]))
    return impl_ret_borrowed(context, builder, typ.field_dict[attr], header)
