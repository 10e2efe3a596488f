// Declarations only: utq opens libpq when a database is attached (see LibPQ.swift).
#include <postgresql/libpq-fe.h>
