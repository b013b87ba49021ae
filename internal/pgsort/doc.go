// Package pgsort is PostgreSQL 15's in-memory quicksort (its
// src/include/lib/sort_template.h, which tuplesort.c, qsort() and
// qsort_arg() all instantiate), for the places whose answer shows where
// it leaves items that compare equal: the executor's sorts (exec/relop)
// and ts_rank's operand list (types/tsearch, SortAndUniqItems).
package pgsort
