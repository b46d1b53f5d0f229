# legal_actions()' arrays (core/_engine.pyx includes this file: the same module as State). Needs
# the module's cimports (cnp, PyObject, PyTypeObject, Py_INCREF, Py_XDECREF, bytearray helpers),
# _I64_DESCR, new_from_descr, PyArray_Type and refcount.

# A fresh numpy array costs more than the rest of a step of the per-step API (numpy's allocator
# hooks, the dims cache, flags): about 1,200 instructions against the game's legal and apply. So
# legal_actions() hands out arrays from a small pool and takes an array back only when nothing
# else refers to it: the pool holds the one reference (so neither the caller nor a view, a
# memoryview, a weak reference or the array's storage is held anywhere), and the array is as the
# pool made it (one dimension, int64, its own data and base). An array a caller keeps is never
# changed. The data lives in a bytearray that is the array's base (numpy does not own it), so
# setting the length in place never confuses numpy's deallocation.
cdef extern from *:
    """
    static CYTHON_INLINE int cs_la_take(PyObject* a, void* data, PyObject* base, PyObject* descr,
                                        npy_intp n, int flags) {
        PyArrayObject_fields* f = (PyArrayObject_fields*)a;
        if (Py_REFCNT(a) != 1 || f->weakreflist != NULL || f->nd != 1 || (PyObject*)f->descr != descr
                || f->data != data || f->base != base || Py_REFCNT(base) != 1)
            return 0;
        f->dimensions[0] = n;
        f->strides[0] = (npy_intp)sizeof(npy_int64);
        f->flags = flags;
        return 1;
    }
    """
    bint cs_la_take(PyObject* a, void* data, PyObject* base, PyObject* descr, cnp.npy_intp n, int flags)
    int PyArray_SetBaseObject(cnp.ndarray arr, object base) except -1   # steals base (Cython increfs it)

cdef enum:
    LA_POOL = 4                      # arrays in the pool (a loop holds one or two at a time)
    LA_CAP = 64 * MAX_ACTION_WORDS   # their capacity: the largest legal set of any game

cdef PyObject* _la_obj[LA_POOL]      # the pool's arrays (owned references), NULL = not made yet
cdef void* _la_data[LA_POOL]         # each one's data and base as made, to see it is unchanged
cdef PyObject* _la_base[LA_POOL]
cdef int _la_flags[LA_POOL]


cdef cnp.ndarray _la_new(cnp.npy_intp n, int k):
    """A pool array of length n for slot k (k < 0: outside the pool), on a bytearray of LA_CAP
    int64 values."""
    cdef bytearray buf = PyByteArray_FromStringAndSize(NULL, LA_CAP * sizeof(int64_t))
    cdef void* data = PyByteArray_AS_STRING(buf)
    Py_INCREF(_I64_DESCR)                # new_from_descr steals it
    cdef cnp.ndarray arr = new_from_descr(&PyArray_Type, <PyObject*>_I64_DESCR, 1, &n, NULL, data,
                                          cnp.NPY_ARRAY_CARRAY, NULL)
    Py_INCREF(buf)                       # PyArray_SetBaseObject steals the reference
    PyArray_SetBaseObject(arr, buf)
    if k >= 0:
        Py_INCREF(arr)
        _la_obj[k] = <PyObject*>arr
        _la_data[k] = data
        _la_base[k] = <PyObject*>buf
        _la_flags[k] = cnp.PyArray_FLAGS(arr)
    return arr


cdef cnp.ndarray _la_array(cnp.npy_intp n):
    """An int64 array of length n for legal_actions(): a pool array nobody else holds, else a
    new one (into an empty or spoiled slot when there is one)."""
    cdef int k
    cdef PyObject* a
    for k in range(LA_POOL):
        a = _la_obj[k]
        if a == NULL:
            return _la_new(n, k)
        if cs_la_take(a, _la_data[k], _la_base[k], <PyObject*>_I64_DESCR, n, _la_flags[k]):
            return <cnp.ndarray>a
        if refcount(a) == 1:             # nobody holds it, but it was changed (dtype, shape, base)
            _la_obj[k] = NULL
            Py_XDECREF(a)
            return _la_new(n, k)
    return _la_new(n, -1)
