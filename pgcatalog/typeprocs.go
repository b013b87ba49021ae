// Code generated from PostgreSQL 15 by TestTypeProcsMatchPostgres; DO NOT EDIT.
// Regenerate: SQLGATE_WRITE_TYPEPROCS=1 PGTEST_BIN_DIR=/usr/lib/postgresql/15/bin go test ./pgcatalog -run TestTypeProcsMatchPostgres

package pgcatalog

// typeProcs are PostgreSQL 15's typinput, typoutput, typreceive, typsend,
// typmodin, typmodout, typanalyze and typsubscript of each type pgTypes
// lists and of record (0: none).
var typeProcs = map[uint32][8]uint32{
	16:   {1242, 1243, 2436, 2437, 0, 0, 0, 0},           // bool
	17:   {1244, 31, 2412, 2413, 0, 0, 0, 0},             // bytea
	18:   {1245, 33, 2434, 2435, 0, 0, 0, 0},             // char
	19:   {34, 35, 2422, 2423, 0, 0, 0, 6180},            // name
	20:   {460, 461, 2408, 2409, 0, 0, 0, 0},             // int8
	21:   {38, 39, 2404, 2405, 0, 0, 0, 0},               // int2
	22:   {40, 41, 2410, 2411, 0, 0, 0, 6179},            // int2vector
	23:   {42, 43, 2406, 2407, 0, 0, 0, 0},               // int4
	24:   {44, 45, 2444, 2445, 0, 0, 0, 0},               // regproc
	25:   {46, 47, 2414, 2415, 0, 0, 0, 0},               // text
	26:   {1798, 1799, 2418, 2419, 0, 0, 0, 0},           // oid
	27:   {48, 49, 2438, 2439, 0, 0, 0, 0},               // tid
	28:   {50, 51, 2440, 2441, 0, 0, 0, 0},               // xid
	29:   {52, 53, 2442, 2443, 0, 0, 0, 0},               // cid
	30:   {54, 55, 2420, 2421, 0, 0, 0, 6179},            // oidvector
	32:   {86, 87, 88, 90, 0, 0, 0, 0},                   // pg_ddl_command
	114:  {321, 322, 323, 324, 0, 0, 0, 0},               // json
	194:  {195, 196, 197, 198, 0, 0, 0, 0},               // pg_node_tree
	199:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _json
	269:  {267, 268, 0, 0, 0, 0, 0, 0},                   // table_am_handler
	325:  {326, 327, 0, 0, 0, 0, 0, 0},                   // index_am_handler
	600:  {117, 118, 2428, 2429, 0, 0, 0, 6180},          // point
	601:  {119, 120, 2480, 2481, 0, 0, 0, 6180},          // lseg
	602:  {121, 122, 2482, 2483, 0, 0, 0, 0},             // path
	603:  {123, 124, 2484, 2485, 0, 0, 0, 6180},          // box
	604:  {347, 348, 2486, 2487, 0, 0, 0, 0},             // polygon
	628:  {1490, 1491, 2488, 2489, 0, 0, 0, 6180},        // line
	629:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _line
	650:  {1267, 1427, 2498, 2499, 0, 0, 0, 0},           // cidr
	651:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _cidr
	700:  {200, 201, 2424, 2425, 0, 0, 0, 0},             // float4
	701:  {214, 215, 2426, 2427, 0, 0, 0, 0},             // float8
	705:  {109, 110, 2416, 2417, 0, 0, 0, 0},             // unknown
	718:  {1450, 1451, 2490, 2491, 0, 0, 0, 0},           // circle
	719:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _circle
	774:  {4110, 4111, 3446, 3447, 0, 0, 0, 0},           // macaddr8
	775:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _macaddr8
	790:  {886, 887, 2492, 2493, 0, 0, 0, 0},             // money
	791:  {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _money
	829:  {436, 437, 2494, 2495, 0, 0, 0, 0},             // macaddr
	869:  {910, 911, 2496, 2497, 0, 0, 0, 0},             // inet
	1000: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _bool
	1001: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _bytea
	1002: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _char
	1003: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _name
	1005: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int2
	1006: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int2vector
	1007: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int4
	1008: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regproc
	1009: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _text
	1010: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tid
	1011: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _xid
	1012: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _cid
	1013: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _oidvector
	1014: {750, 751, 2400, 2401, 2913, 2914, 3816, 6179}, // _bpchar
	1015: {750, 751, 2400, 2401, 2915, 2916, 3816, 6179}, // _varchar
	1016: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int8
	1017: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _point
	1018: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _lseg
	1019: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _path
	1020: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _box
	1021: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _float4
	1022: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _float8
	1027: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _polygon
	1028: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _oid
	1033: {1031, 1032, 0, 0, 0, 0, 0, 0},                 // aclitem
	1034: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _aclitem
	1040: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _macaddr
	1041: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _inet
	1042: {1044, 1045, 2430, 2431, 2913, 2914, 0, 0},     // bpchar
	1043: {1046, 1047, 2432, 2433, 2915, 2916, 0, 0},     // varchar
	1082: {1084, 1085, 2468, 2469, 0, 0, 0, 0},           // date
	1083: {1143, 1144, 2470, 2471, 2909, 2910, 0, 0},     // time
	1114: {1312, 1313, 2474, 2475, 2905, 2906, 0, 0},     // timestamp
	1115: {750, 751, 2400, 2401, 2905, 2906, 3816, 6179}, // _timestamp
	1182: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _date
	1183: {750, 751, 2400, 2401, 2909, 2910, 3816, 6179}, // _time
	1184: {1150, 1151, 2476, 2477, 2907, 2908, 0, 0},     // timestamptz
	1185: {750, 751, 2400, 2401, 2907, 2908, 3816, 6179}, // _timestamptz
	1186: {1160, 1161, 2478, 2479, 2903, 2904, 0, 0},     // interval
	1187: {750, 751, 2400, 2401, 2903, 2904, 3816, 6179}, // _interval
	1231: {750, 751, 2400, 2401, 2917, 2918, 3816, 6179}, // _numeric
	1263: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _cstring
	1266: {1350, 1351, 2472, 2473, 2911, 2912, 0, 0},     // timetz
	1270: {750, 751, 2400, 2401, 2911, 2912, 3816, 6179}, // _timetz
	1560: {1564, 1565, 2456, 2457, 2919, 2920, 0, 0},     // bit
	1561: {750, 751, 2400, 2401, 2919, 2920, 3816, 6179}, // _bit
	1562: {1579, 1580, 2458, 2459, 2902, 2921, 0, 0},     // varbit
	1563: {750, 751, 2400, 2401, 2902, 2921, 3816, 6179}, // _varbit
	1700: {1701, 1702, 2460, 2461, 2917, 2918, 0, 0},     // numeric
	2202: {2212, 2213, 2446, 2447, 0, 0, 0, 0},           // regprocedure
	2203: {2214, 2215, 2448, 2449, 0, 0, 0, 0},           // regoper
	2204: {2216, 2217, 2450, 2451, 0, 0, 0, 0},           // regoperator
	2205: {2218, 2219, 2452, 2453, 0, 0, 0, 0},           // regclass
	2206: {2220, 2221, 2454, 2455, 0, 0, 0, 0},           // regtype
	2207: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regprocedure
	2208: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regoper
	2209: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regoperator
	2210: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regclass
	2211: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regtype
	2249: {2290, 2291, 2402, 2403, 0, 0, 0, 0},           // record
	2275: {2292, 2293, 2500, 2501, 0, 0, 0, 0},           // cstring
	2276: {2294, 2295, 0, 0, 0, 0, 0, 0},                 // any
	2277: {2296, 2297, 2502, 2503, 0, 0, 0, 0},           // anyarray
	2278: {2298, 2299, 3120, 3121, 0, 0, 0, 0},           // void
	2279: {2300, 2301, 0, 0, 0, 0, 0, 0},                 // trigger
	2280: {2302, 2303, 0, 0, 0, 0, 0, 0},                 // language_handler
	2281: {2304, 2305, 0, 0, 0, 0, 0, 0},                 // internal
	2283: {2312, 2313, 0, 0, 0, 0, 0, 0},                 // anyelement
	2287: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _record
	2776: {2777, 2778, 0, 0, 0, 0, 0, 0},                 // anynonarray
	2950: {2952, 2953, 2961, 2962, 0, 0, 0, 0},           // uuid
	2951: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _uuid
	3115: {3116, 3117, 0, 0, 0, 0, 0, 0},                 // fdw_handler
	3220: {3229, 3230, 3238, 3239, 0, 0, 0, 0},           // pg_lsn
	3221: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _pg_lsn
	3310: {3311, 3312, 0, 0, 0, 0, 0, 0},                 // tsm_handler
	3500: {3504, 3505, 0, 0, 0, 0, 0, 0},                 // anyenum
	3614: {3610, 3611, 3639, 3638, 0, 0, 3688, 0},        // tsvector
	3615: {3612, 3613, 3641, 3640, 0, 0, 0, 0},           // tsquery
	3642: {3646, 3647, 0, 0, 0, 0, 0, 0},                 // gtsvector
	3643: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tsvector
	3644: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _gtsvector
	3645: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tsquery
	3734: {3736, 3737, 3738, 3739, 0, 0, 0, 0},           // regconfig
	3735: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regconfig
	3769: {3771, 3772, 3773, 3774, 0, 0, 0, 0},           // regdictionary
	3770: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regdictionary
	3802: {3806, 3804, 3805, 3803, 0, 0, 0, 6098},        // jsonb
	3807: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _jsonb
	3831: {3832, 3833, 0, 0, 0, 0, 0, 0},                 // anyrange
	3838: {3594, 3595, 0, 0, 0, 0, 0, 0},                 // event_trigger
	3904: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // int4range
	3905: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int4range
	3906: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // numrange
	3907: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _numrange
	3908: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // tsrange
	3909: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tsrange
	3910: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // tstzrange
	3911: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tstzrange
	3912: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // daterange
	3913: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _daterange
	3926: {3834, 3835, 3836, 3837, 0, 0, 3916, 0},        // int8range
	3927: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int8range
	4072: {4001, 4003, 4002, 4004, 0, 0, 0, 0},           // jsonpath
	4073: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _jsonpath
	4089: {4084, 4085, 4087, 4088, 0, 0, 0, 0},           // regnamespace
	4090: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regnamespace
	4096: {4098, 4092, 4094, 4095, 0, 0, 0, 0},           // regrole
	4097: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regrole
	4191: {4193, 4194, 4196, 4197, 0, 0, 0, 0},           // regcollation
	4192: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _regcollation
	4451: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // int4multirange
	4532: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // nummultirange
	4533: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // tsmultirange
	4534: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // tstzmultirange
	4535: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // datemultirange
	4536: {4231, 4232, 4233, 4234, 0, 0, 4242, 0},        // int8multirange
	4537: {4229, 4230, 0, 0, 0, 0, 0, 0},                 // anymultirange
	4538: {4226, 4227, 0, 0, 0, 0, 0, 0},                 // anycompatiblemultirange
	5077: {5086, 5087, 0, 0, 0, 0, 0, 0},                 // anycompatible
	5078: {5088, 5089, 5090, 5091, 0, 0, 0, 0},           // anycompatiblearray
	5079: {5092, 5093, 0, 0, 0, 0, 0, 0},                 // anycompatiblenonarray
	5080: {5094, 5095, 0, 0, 0, 0, 0, 0},                 // anycompatiblerange
	6150: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int4multirange
	6151: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _nummultirange
	6152: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tsmultirange
	6153: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _tstzmultirange
	6155: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _datemultirange
	6157: {750, 751, 2400, 2401, 0, 0, 3816, 6179},       // _int8multirange
}

// typeProcInfos are those functions, the access methods' handlers
// (pg_am.amhandler) and the range types' canonical and subdiff functions
// (pg_range), with PostgreSQL 15's OIDs, as pg_proc lists them.
var typeProcInfos = []procInfo{
	{oid: 3, name: "heap_tableam_handler", args: []any{uint32(2281)}, ret: 269, nargs: 1},
	{oid: 31, name: "byteaout", args: []any{uint32(17)}, ret: 2275, nargs: 1},
	{oid: 33, name: "charout", args: []any{uint32(18)}, ret: 2275, nargs: 1},
	{oid: 34, name: "namein", args: []any{uint32(2275)}, ret: 19, nargs: 1},
	{oid: 35, name: "nameout", args: []any{uint32(19)}, ret: 2275, nargs: 1},
	{oid: 38, name: "int2in", args: []any{uint32(2275)}, ret: 21, nargs: 1},
	{oid: 39, name: "int2out", args: []any{uint32(21)}, ret: 2275, nargs: 1},
	{oid: 40, name: "int2vectorin", args: []any{uint32(2275)}, ret: 22, nargs: 1},
	{oid: 41, name: "int2vectorout", args: []any{uint32(22)}, ret: 2275, nargs: 1},
	{oid: 42, name: "int4in", args: []any{uint32(2275)}, ret: 23, nargs: 1},
	{oid: 43, name: "int4out", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 44, name: "regprocin", args: []any{uint32(2275)}, ret: 24, nargs: 1},
	{oid: 45, name: "regprocout", args: []any{uint32(24)}, ret: 2275, nargs: 1},
	{oid: 46, name: "textin", args: []any{uint32(2275)}, ret: 25, nargs: 1},
	{oid: 47, name: "textout", args: []any{uint32(25)}, ret: 2275, nargs: 1},
	{oid: 48, name: "tidin", args: []any{uint32(2275)}, ret: 27, nargs: 1},
	{oid: 49, name: "tidout", args: []any{uint32(27)}, ret: 2275, nargs: 1},
	{oid: 50, name: "xidin", args: []any{uint32(2275)}, ret: 28, nargs: 1},
	{oid: 51, name: "xidout", args: []any{uint32(28)}, ret: 2275, nargs: 1},
	{oid: 52, name: "cidin", args: []any{uint32(2275)}, ret: 29, nargs: 1},
	{oid: 53, name: "cidout", args: []any{uint32(29)}, ret: 2275, nargs: 1},
	{oid: 54, name: "oidvectorin", args: []any{uint32(2275)}, ret: 30, nargs: 1},
	{oid: 55, name: "oidvectorout", args: []any{uint32(30)}, ret: 2275, nargs: 1},
	{oid: 86, name: "pg_ddl_command_in", args: []any{uint32(2275)}, ret: 32, nargs: 1},
	{oid: 87, name: "pg_ddl_command_out", args: []any{uint32(32)}, ret: 2275, nargs: 1},
	{oid: 88, name: "pg_ddl_command_recv", args: []any{uint32(2281)}, ret: 32, nargs: 1},
	{oid: 90, name: "pg_ddl_command_send", args: []any{uint32(32)}, ret: 17, nargs: 1},
	{oid: 109, name: "unknownin", args: []any{uint32(2275)}, ret: 705, nargs: 1},
	{oid: 110, name: "unknownout", args: []any{uint32(705)}, ret: 2275, nargs: 1},
	{oid: 117, name: "point_in", args: []any{uint32(2275)}, ret: 600, nargs: 1},
	{oid: 118, name: "point_out", args: []any{uint32(600)}, ret: 2275, nargs: 1},
	{oid: 119, name: "lseg_in", args: []any{uint32(2275)}, ret: 601, nargs: 1},
	{oid: 120, name: "lseg_out", args: []any{uint32(601)}, ret: 2275, nargs: 1},
	{oid: 121, name: "path_in", args: []any{uint32(2275)}, ret: 602, nargs: 1},
	{oid: 122, name: "path_out", args: []any{uint32(602)}, ret: 2275, nargs: 1},
	{oid: 123, name: "box_in", args: []any{uint32(2275)}, ret: 603, nargs: 1},
	{oid: 124, name: "box_out", args: []any{uint32(603)}, ret: 2275, nargs: 1},
	{oid: 195, name: "pg_node_tree_in", args: []any{uint32(2275)}, ret: 194, nargs: 1},
	{oid: 196, name: "pg_node_tree_out", args: []any{uint32(194)}, ret: 2275, nargs: 1},
	{oid: 197, name: "pg_node_tree_recv", args: []any{uint32(2281)}, ret: 194, nargs: 1},
	{oid: 198, name: "pg_node_tree_send", args: []any{uint32(194)}, ret: 17, nargs: 1},
	{oid: 200, name: "float4in", args: []any{uint32(2275)}, ret: 700, nargs: 1},
	{oid: 201, name: "float4out", args: []any{uint32(700)}, ret: 2275, nargs: 1},
	{oid: 214, name: "float8in", args: []any{uint32(2275)}, ret: 701, nargs: 1},
	{oid: 215, name: "float8out", args: []any{uint32(701)}, ret: 2275, nargs: 1},
	{oid: 267, name: "table_am_handler_in", args: []any{uint32(2275)}, ret: 269, nargs: 1},
	{oid: 268, name: "table_am_handler_out", args: []any{uint32(269)}, ret: 2275, nargs: 1},
	{oid: 321, name: "json_in", args: []any{uint32(2275)}, ret: 114, nargs: 1},
	{oid: 322, name: "json_out", args: []any{uint32(114)}, ret: 2275, nargs: 1},
	{oid: 323, name: "json_recv", args: []any{uint32(2281)}, ret: 114, nargs: 1},
	{oid: 324, name: "json_send", args: []any{uint32(114)}, ret: 17, nargs: 1},
	{oid: 326, name: "index_am_handler_in", args: []any{uint32(2275)}, ret: 325, nargs: 1},
	{oid: 327, name: "index_am_handler_out", args: []any{uint32(325)}, ret: 2275, nargs: 1},
	{oid: 330, name: "bthandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 331, name: "hashhandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 332, name: "gisthandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 333, name: "ginhandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 334, name: "spghandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 335, name: "brinhandler", args: []any{uint32(2281)}, ret: 325, nargs: 1},
	{oid: 347, name: "poly_in", args: []any{uint32(2275)}, ret: 604, nargs: 1},
	{oid: 348, name: "poly_out", args: []any{uint32(604)}, ret: 2275, nargs: 1},
	{oid: 436, name: "macaddr_in", args: []any{uint32(2275)}, ret: 829, nargs: 1},
	{oid: 437, name: "macaddr_out", args: []any{uint32(829)}, ret: 2275, nargs: 1},
	{oid: 460, name: "int8in", args: []any{uint32(2275)}, ret: 20, nargs: 1},
	{oid: 461, name: "int8out", args: []any{uint32(20)}, ret: 2275, nargs: 1},
	{oid: 750, name: "array_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 2277, nargs: 3},
	{oid: 751, name: "array_out", args: []any{uint32(2277)}, ret: 2275, nargs: 1},
	{oid: 886, name: "cash_in", args: []any{uint32(2275)}, ret: 790, nargs: 1},
	{oid: 887, name: "cash_out", args: []any{uint32(790)}, ret: 2275, nargs: 1},
	{oid: 910, name: "inet_in", args: []any{uint32(2275)}, ret: 869, nargs: 1},
	{oid: 911, name: "inet_out", args: []any{uint32(869)}, ret: 2275, nargs: 1},
	{oid: 1031, name: "aclitemin", args: []any{uint32(2275)}, ret: 1033, nargs: 1},
	{oid: 1032, name: "aclitemout", args: []any{uint32(1033)}, ret: 2275, nargs: 1},
	{oid: 1044, name: "bpcharin", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1042, nargs: 3},
	{oid: 1045, name: "bpcharout", args: []any{uint32(1042)}, ret: 2275, nargs: 1},
	{oid: 1046, name: "varcharin", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1043, nargs: 3},
	{oid: 1047, name: "varcharout", args: []any{uint32(1043)}, ret: 2275, nargs: 1},
	{oid: 1084, name: "date_in", args: []any{uint32(2275)}, ret: 1082, nargs: 1},
	{oid: 1085, name: "date_out", args: []any{uint32(1082)}, ret: 2275, nargs: 1},
	{oid: 1143, name: "time_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1083, nargs: 3},
	{oid: 1144, name: "time_out", args: []any{uint32(1083)}, ret: 2275, nargs: 1},
	{oid: 1150, name: "timestamptz_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1184, nargs: 3},
	{oid: 1151, name: "timestamptz_out", args: []any{uint32(1184)}, ret: 2275, nargs: 1},
	{oid: 1160, name: "interval_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1186, nargs: 3},
	{oid: 1161, name: "interval_out", args: []any{uint32(1186)}, ret: 2275, nargs: 1},
	{oid: 1242, name: "boolin", args: []any{uint32(2275)}, ret: 16, nargs: 1},
	{oid: 1243, name: "boolout", args: []any{uint32(16)}, ret: 2275, nargs: 1},
	{oid: 1244, name: "byteain", args: []any{uint32(2275)}, ret: 17, nargs: 1},
	{oid: 1245, name: "charin", args: []any{uint32(2275)}, ret: 18, nargs: 1},
	{oid: 1267, name: "cidr_in", args: []any{uint32(2275)}, ret: 650, nargs: 1},
	{oid: 1312, name: "timestamp_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1114, nargs: 3},
	{oid: 1313, name: "timestamp_out", args: []any{uint32(1114)}, ret: 2275, nargs: 1},
	{oid: 1350, name: "timetz_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1266, nargs: 3},
	{oid: 1351, name: "timetz_out", args: []any{uint32(1266)}, ret: 2275, nargs: 1},
	{oid: 1427, name: "cidr_out", args: []any{uint32(650)}, ret: 2275, nargs: 1},
	{oid: 1450, name: "circle_in", args: []any{uint32(2275)}, ret: 718, nargs: 1},
	{oid: 1451, name: "circle_out", args: []any{uint32(718)}, ret: 2275, nargs: 1},
	{oid: 1490, name: "line_in", args: []any{uint32(2275)}, ret: 628, nargs: 1},
	{oid: 1491, name: "line_out", args: []any{uint32(628)}, ret: 2275, nargs: 1},
	{oid: 1564, name: "bit_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1560, nargs: 3},
	{oid: 1565, name: "bit_out", args: []any{uint32(1560)}, ret: 2275, nargs: 1},
	{oid: 1579, name: "varbit_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1562, nargs: 3},
	{oid: 1580, name: "varbit_out", args: []any{uint32(1562)}, ret: 2275, nargs: 1},
	{oid: 1701, name: "numeric_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 1700, nargs: 3},
	{oid: 1702, name: "numeric_out", args: []any{uint32(1700)}, ret: 2275, nargs: 1},
	{oid: 1798, name: "oidin", args: []any{uint32(2275)}, ret: 26, nargs: 1},
	{oid: 1799, name: "oidout", args: []any{uint32(26)}, ret: 2275, nargs: 1},
	{oid: 2212, name: "regprocedurein", args: []any{uint32(2275)}, ret: 2202, nargs: 1},
	{oid: 2213, name: "regprocedureout", args: []any{uint32(2202)}, ret: 2275, nargs: 1},
	{oid: 2214, name: "regoperin", args: []any{uint32(2275)}, ret: 2203, nargs: 1},
	{oid: 2215, name: "regoperout", args: []any{uint32(2203)}, ret: 2275, nargs: 1},
	{oid: 2216, name: "regoperatorin", args: []any{uint32(2275)}, ret: 2204, nargs: 1},
	{oid: 2217, name: "regoperatorout", args: []any{uint32(2204)}, ret: 2275, nargs: 1},
	{oid: 2218, name: "regclassin", args: []any{uint32(2275)}, ret: 2205, nargs: 1},
	{oid: 2219, name: "regclassout", args: []any{uint32(2205)}, ret: 2275, nargs: 1},
	{oid: 2220, name: "regtypein", args: []any{uint32(2275)}, ret: 2206, nargs: 1},
	{oid: 2221, name: "regtypeout", args: []any{uint32(2206)}, ret: 2275, nargs: 1},
	{oid: 2290, name: "record_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 2249, nargs: 3},
	{oid: 2291, name: "record_out", args: []any{uint32(2249)}, ret: 2275, nargs: 1},
	{oid: 2292, name: "cstring_in", args: []any{uint32(2275)}, ret: 2275, nargs: 1},
	{oid: 2293, name: "cstring_out", args: []any{uint32(2275)}, ret: 2275, nargs: 1},
	{oid: 2294, name: "any_in", args: []any{uint32(2275)}, ret: 2276, nargs: 1},
	{oid: 2295, name: "any_out", args: []any{uint32(2276)}, ret: 2275, nargs: 1},
	{oid: 2296, name: "anyarray_in", args: []any{uint32(2275)}, ret: 2277, nargs: 1},
	{oid: 2297, name: "anyarray_out", args: []any{uint32(2277)}, ret: 2275, nargs: 1},
	{oid: 2298, name: "void_in", args: []any{uint32(2275)}, ret: 2278, nargs: 1},
	{oid: 2299, name: "void_out", args: []any{uint32(2278)}, ret: 2275, nargs: 1},
	{oid: 2300, name: "trigger_in", args: []any{uint32(2275)}, ret: 2279, nargs: 1},
	{oid: 2301, name: "trigger_out", args: []any{uint32(2279)}, ret: 2275, nargs: 1},
	{oid: 2302, name: "language_handler_in", args: []any{uint32(2275)}, ret: 2280, nargs: 1},
	{oid: 2303, name: "language_handler_out", args: []any{uint32(2280)}, ret: 2275, nargs: 1},
	{oid: 2304, name: "internal_in", args: []any{uint32(2275)}, ret: 2281, nargs: 1},
	{oid: 2305, name: "internal_out", args: []any{uint32(2281)}, ret: 2275, nargs: 1},
	{oid: 2312, name: "anyelement_in", args: []any{uint32(2275)}, ret: 2283, nargs: 1},
	{oid: 2313, name: "anyelement_out", args: []any{uint32(2283)}, ret: 2275, nargs: 1},
	{oid: 2400, name: "array_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 2277, nargs: 3},
	{oid: 2401, name: "array_send", args: []any{uint32(2277)}, ret: 17, nargs: 1},
	{oid: 2402, name: "record_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 2249, nargs: 3},
	{oid: 2403, name: "record_send", args: []any{uint32(2249)}, ret: 17, nargs: 1},
	{oid: 2404, name: "int2recv", args: []any{uint32(2281)}, ret: 21, nargs: 1},
	{oid: 2405, name: "int2send", args: []any{uint32(21)}, ret: 17, nargs: 1},
	{oid: 2406, name: "int4recv", args: []any{uint32(2281)}, ret: 23, nargs: 1},
	{oid: 2407, name: "int4send", args: []any{uint32(23)}, ret: 17, nargs: 1},
	{oid: 2408, name: "int8recv", args: []any{uint32(2281)}, ret: 20, nargs: 1},
	{oid: 2409, name: "int8send", args: []any{uint32(20)}, ret: 17, nargs: 1},
	{oid: 2410, name: "int2vectorrecv", args: []any{uint32(2281)}, ret: 22, nargs: 1},
	{oid: 2411, name: "int2vectorsend", args: []any{uint32(22)}, ret: 17, nargs: 1},
	{oid: 2412, name: "bytearecv", args: []any{uint32(2281)}, ret: 17, nargs: 1},
	{oid: 2413, name: "byteasend", args: []any{uint32(17)}, ret: 17, nargs: 1},
	{oid: 2414, name: "textrecv", args: []any{uint32(2281)}, ret: 25, nargs: 1},
	{oid: 2415, name: "textsend", args: []any{uint32(25)}, ret: 17, nargs: 1},
	{oid: 2416, name: "unknownrecv", args: []any{uint32(2281)}, ret: 705, nargs: 1},
	{oid: 2417, name: "unknownsend", args: []any{uint32(705)}, ret: 17, nargs: 1},
	{oid: 2418, name: "oidrecv", args: []any{uint32(2281)}, ret: 26, nargs: 1},
	{oid: 2419, name: "oidsend", args: []any{uint32(26)}, ret: 17, nargs: 1},
	{oid: 2420, name: "oidvectorrecv", args: []any{uint32(2281)}, ret: 30, nargs: 1},
	{oid: 2421, name: "oidvectorsend", args: []any{uint32(30)}, ret: 17, nargs: 1},
	{oid: 2422, name: "namerecv", args: []any{uint32(2281)}, ret: 19, nargs: 1},
	{oid: 2423, name: "namesend", args: []any{uint32(19)}, ret: 17, nargs: 1},
	{oid: 2424, name: "float4recv", args: []any{uint32(2281)}, ret: 700, nargs: 1},
	{oid: 2425, name: "float4send", args: []any{uint32(700)}, ret: 17, nargs: 1},
	{oid: 2426, name: "float8recv", args: []any{uint32(2281)}, ret: 701, nargs: 1},
	{oid: 2427, name: "float8send", args: []any{uint32(701)}, ret: 17, nargs: 1},
	{oid: 2428, name: "point_recv", args: []any{uint32(2281)}, ret: 600, nargs: 1},
	{oid: 2429, name: "point_send", args: []any{uint32(600)}, ret: 17, nargs: 1},
	{oid: 2430, name: "bpcharrecv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1042, nargs: 3},
	{oid: 2431, name: "bpcharsend", args: []any{uint32(1042)}, ret: 17, nargs: 1},
	{oid: 2432, name: "varcharrecv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1043, nargs: 3},
	{oid: 2433, name: "varcharsend", args: []any{uint32(1043)}, ret: 17, nargs: 1},
	{oid: 2434, name: "charrecv", args: []any{uint32(2281)}, ret: 18, nargs: 1},
	{oid: 2435, name: "charsend", args: []any{uint32(18)}, ret: 17, nargs: 1},
	{oid: 2436, name: "boolrecv", args: []any{uint32(2281)}, ret: 16, nargs: 1},
	{oid: 2437, name: "boolsend", args: []any{uint32(16)}, ret: 17, nargs: 1},
	{oid: 2438, name: "tidrecv", args: []any{uint32(2281)}, ret: 27, nargs: 1},
	{oid: 2439, name: "tidsend", args: []any{uint32(27)}, ret: 17, nargs: 1},
	{oid: 2440, name: "xidrecv", args: []any{uint32(2281)}, ret: 28, nargs: 1},
	{oid: 2441, name: "xidsend", args: []any{uint32(28)}, ret: 17, nargs: 1},
	{oid: 2442, name: "cidrecv", args: []any{uint32(2281)}, ret: 29, nargs: 1},
	{oid: 2443, name: "cidsend", args: []any{uint32(29)}, ret: 17, nargs: 1},
	{oid: 2444, name: "regprocrecv", args: []any{uint32(2281)}, ret: 24, nargs: 1},
	{oid: 2445, name: "regprocsend", args: []any{uint32(24)}, ret: 17, nargs: 1},
	{oid: 2446, name: "regprocedurerecv", args: []any{uint32(2281)}, ret: 2202, nargs: 1},
	{oid: 2447, name: "regproceduresend", args: []any{uint32(2202)}, ret: 17, nargs: 1},
	{oid: 2448, name: "regoperrecv", args: []any{uint32(2281)}, ret: 2203, nargs: 1},
	{oid: 2449, name: "regopersend", args: []any{uint32(2203)}, ret: 17, nargs: 1},
	{oid: 2450, name: "regoperatorrecv", args: []any{uint32(2281)}, ret: 2204, nargs: 1},
	{oid: 2451, name: "regoperatorsend", args: []any{uint32(2204)}, ret: 17, nargs: 1},
	{oid: 2452, name: "regclassrecv", args: []any{uint32(2281)}, ret: 2205, nargs: 1},
	{oid: 2453, name: "regclasssend", args: []any{uint32(2205)}, ret: 17, nargs: 1},
	{oid: 2454, name: "regtyperecv", args: []any{uint32(2281)}, ret: 2206, nargs: 1},
	{oid: 2455, name: "regtypesend", args: []any{uint32(2206)}, ret: 17, nargs: 1},
	{oid: 2456, name: "bit_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1560, nargs: 3},
	{oid: 2457, name: "bit_send", args: []any{uint32(1560)}, ret: 17, nargs: 1},
	{oid: 2458, name: "varbit_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1562, nargs: 3},
	{oid: 2459, name: "varbit_send", args: []any{uint32(1562)}, ret: 17, nargs: 1},
	{oid: 2460, name: "numeric_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1700, nargs: 3},
	{oid: 2461, name: "numeric_send", args: []any{uint32(1700)}, ret: 17, nargs: 1},
	{oid: 2468, name: "date_recv", args: []any{uint32(2281)}, ret: 1082, nargs: 1},
	{oid: 2469, name: "date_send", args: []any{uint32(1082)}, ret: 17, nargs: 1},
	{oid: 2470, name: "time_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1083, nargs: 3},
	{oid: 2471, name: "time_send", args: []any{uint32(1083)}, ret: 17, nargs: 1},
	{oid: 2472, name: "timetz_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1266, nargs: 3},
	{oid: 2473, name: "timetz_send", args: []any{uint32(1266)}, ret: 17, nargs: 1},
	{oid: 2474, name: "timestamp_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1114, nargs: 3},
	{oid: 2475, name: "timestamp_send", args: []any{uint32(1114)}, ret: 17, nargs: 1},
	{oid: 2476, name: "timestamptz_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1184, nargs: 3},
	{oid: 2477, name: "timestamptz_send", args: []any{uint32(1184)}, ret: 17, nargs: 1},
	{oid: 2478, name: "interval_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 1186, nargs: 3},
	{oid: 2479, name: "interval_send", args: []any{uint32(1186)}, ret: 17, nargs: 1},
	{oid: 2480, name: "lseg_recv", args: []any{uint32(2281)}, ret: 601, nargs: 1},
	{oid: 2481, name: "lseg_send", args: []any{uint32(601)}, ret: 17, nargs: 1},
	{oid: 2482, name: "path_recv", args: []any{uint32(2281)}, ret: 602, nargs: 1},
	{oid: 2483, name: "path_send", args: []any{uint32(602)}, ret: 17, nargs: 1},
	{oid: 2484, name: "box_recv", args: []any{uint32(2281)}, ret: 603, nargs: 1},
	{oid: 2485, name: "box_send", args: []any{uint32(603)}, ret: 17, nargs: 1},
	{oid: 2486, name: "poly_recv", args: []any{uint32(2281)}, ret: 604, nargs: 1},
	{oid: 2487, name: "poly_send", args: []any{uint32(604)}, ret: 17, nargs: 1},
	{oid: 2488, name: "line_recv", args: []any{uint32(2281)}, ret: 628, nargs: 1},
	{oid: 2489, name: "line_send", args: []any{uint32(628)}, ret: 17, nargs: 1},
	{oid: 2490, name: "circle_recv", args: []any{uint32(2281)}, ret: 718, nargs: 1},
	{oid: 2491, name: "circle_send", args: []any{uint32(718)}, ret: 17, nargs: 1},
	{oid: 2492, name: "cash_recv", args: []any{uint32(2281)}, ret: 790, nargs: 1},
	{oid: 2493, name: "cash_send", args: []any{uint32(790)}, ret: 17, nargs: 1},
	{oid: 2494, name: "macaddr_recv", args: []any{uint32(2281)}, ret: 829, nargs: 1},
	{oid: 2495, name: "macaddr_send", args: []any{uint32(829)}, ret: 17, nargs: 1},
	{oid: 2496, name: "inet_recv", args: []any{uint32(2281)}, ret: 869, nargs: 1},
	{oid: 2497, name: "inet_send", args: []any{uint32(869)}, ret: 17, nargs: 1},
	{oid: 2498, name: "cidr_recv", args: []any{uint32(2281)}, ret: 650, nargs: 1},
	{oid: 2499, name: "cidr_send", args: []any{uint32(650)}, ret: 17, nargs: 1},
	{oid: 2500, name: "cstring_recv", args: []any{uint32(2281)}, ret: 2275, nargs: 1},
	{oid: 2501, name: "cstring_send", args: []any{uint32(2275)}, ret: 17, nargs: 1},
	{oid: 2502, name: "anyarray_recv", args: []any{uint32(2281)}, ret: 2277, nargs: 1},
	{oid: 2503, name: "anyarray_send", args: []any{uint32(2277)}, ret: 17, nargs: 1},
	{oid: 2777, name: "anynonarray_in", args: []any{uint32(2275)}, ret: 2776, nargs: 1},
	{oid: 2778, name: "anynonarray_out", args: []any{uint32(2776)}, ret: 2275, nargs: 1},
	{oid: 2902, name: "varbittypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2903, name: "intervaltypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2904, name: "intervaltypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2905, name: "timestamptypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2906, name: "timestamptypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2907, name: "timestamptztypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2908, name: "timestamptztypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2909, name: "timetypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2910, name: "timetypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2911, name: "timetztypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2912, name: "timetztypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2913, name: "bpchartypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2914, name: "bpchartypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2915, name: "varchartypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2916, name: "varchartypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2917, name: "numerictypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2918, name: "numerictypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2919, name: "bittypmodin", args: []any{uint32(1263)}, ret: 23, nargs: 1},
	{oid: 2920, name: "bittypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2921, name: "varbittypmodout", args: []any{uint32(23)}, ret: 2275, nargs: 1},
	{oid: 2952, name: "uuid_in", args: []any{uint32(2275)}, ret: 2950, nargs: 1},
	{oid: 2953, name: "uuid_out", args: []any{uint32(2950)}, ret: 2275, nargs: 1},
	{oid: 2961, name: "uuid_recv", args: []any{uint32(2281)}, ret: 2950, nargs: 1},
	{oid: 2962, name: "uuid_send", args: []any{uint32(2950)}, ret: 17, nargs: 1},
	{oid: 3116, name: "fdw_handler_in", args: []any{uint32(2275)}, ret: 3115, nargs: 1},
	{oid: 3117, name: "fdw_handler_out", args: []any{uint32(3115)}, ret: 2275, nargs: 1},
	{oid: 3120, name: "void_recv", args: []any{uint32(2281)}, ret: 2278, nargs: 1},
	{oid: 3121, name: "void_send", args: []any{uint32(2278)}, ret: 17, nargs: 1},
	{oid: 3229, name: "pg_lsn_in", args: []any{uint32(2275)}, ret: 3220, nargs: 1},
	{oid: 3230, name: "pg_lsn_out", args: []any{uint32(3220)}, ret: 2275, nargs: 1},
	{oid: 3238, name: "pg_lsn_recv", args: []any{uint32(2281)}, ret: 3220, nargs: 1},
	{oid: 3239, name: "pg_lsn_send", args: []any{uint32(3220)}, ret: 17, nargs: 1},
	{oid: 3311, name: "tsm_handler_in", args: []any{uint32(2275)}, ret: 3310, nargs: 1},
	{oid: 3312, name: "tsm_handler_out", args: []any{uint32(3310)}, ret: 2275, nargs: 1},
	{oid: 3446, name: "macaddr8_recv", args: []any{uint32(2281)}, ret: 774, nargs: 1},
	{oid: 3447, name: "macaddr8_send", args: []any{uint32(774)}, ret: 17, nargs: 1},
	{oid: 3504, name: "anyenum_in", args: []any{uint32(2275)}, ret: 3500, nargs: 1},
	{oid: 3505, name: "anyenum_out", args: []any{uint32(3500)}, ret: 2275, nargs: 1},
	{oid: 3594, name: "event_trigger_in", args: []any{uint32(2275)}, ret: 3838, nargs: 1},
	{oid: 3595, name: "event_trigger_out", args: []any{uint32(3838)}, ret: 2275, nargs: 1},
	{oid: 3610, name: "tsvectorin", args: []any{uint32(2275)}, ret: 3614, nargs: 1},
	{oid: 3611, name: "tsvectorout", args: []any{uint32(3614)}, ret: 2275, nargs: 1},
	{oid: 3612, name: "tsqueryin", args: []any{uint32(2275)}, ret: 3615, nargs: 1},
	{oid: 3613, name: "tsqueryout", args: []any{uint32(3615)}, ret: 2275, nargs: 1},
	{oid: 3638, name: "tsvectorsend", args: []any{uint32(3614)}, ret: 17, nargs: 1},
	{oid: 3639, name: "tsvectorrecv", args: []any{uint32(2281)}, ret: 3614, nargs: 1},
	{oid: 3640, name: "tsquerysend", args: []any{uint32(3615)}, ret: 17, nargs: 1},
	{oid: 3641, name: "tsqueryrecv", args: []any{uint32(2281)}, ret: 3615, nargs: 1},
	{oid: 3646, name: "gtsvectorin", args: []any{uint32(2275)}, ret: 3642, nargs: 1},
	{oid: 3647, name: "gtsvectorout", args: []any{uint32(3642)}, ret: 2275, nargs: 1},
	{oid: 3688, name: "ts_typanalyze", args: []any{uint32(2281)}, ret: 16, nargs: 1},
	{oid: 3736, name: "regconfigin", args: []any{uint32(2275)}, ret: 3734, nargs: 1},
	{oid: 3737, name: "regconfigout", args: []any{uint32(3734)}, ret: 2275, nargs: 1},
	{oid: 3738, name: "regconfigrecv", args: []any{uint32(2281)}, ret: 3734, nargs: 1},
	{oid: 3739, name: "regconfigsend", args: []any{uint32(3734)}, ret: 17, nargs: 1},
	{oid: 3771, name: "regdictionaryin", args: []any{uint32(2275)}, ret: 3769, nargs: 1},
	{oid: 3772, name: "regdictionaryout", args: []any{uint32(3769)}, ret: 2275, nargs: 1},
	{oid: 3773, name: "regdictionaryrecv", args: []any{uint32(2281)}, ret: 3769, nargs: 1},
	{oid: 3774, name: "regdictionarysend", args: []any{uint32(3769)}, ret: 17, nargs: 1},
	{oid: 3803, name: "jsonb_send", args: []any{uint32(3802)}, ret: 17, nargs: 1},
	{oid: 3804, name: "jsonb_out", args: []any{uint32(3802)}, ret: 2275, nargs: 1},
	{oid: 3805, name: "jsonb_recv", args: []any{uint32(2281)}, ret: 3802, nargs: 1},
	{oid: 3806, name: "jsonb_in", args: []any{uint32(2275)}, ret: 3802, nargs: 1},
	{oid: 3816, name: "array_typanalyze", args: []any{uint32(2281)}, ret: 16, nargs: 1},
	{oid: 3832, name: "anyrange_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 3831, nargs: 3},
	{oid: 3833, name: "anyrange_out", args: []any{uint32(3831)}, ret: 2275, nargs: 1},
	{oid: 3834, name: "range_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 3831, nargs: 3},
	{oid: 3835, name: "range_out", args: []any{uint32(3831)}, ret: 2275, nargs: 1},
	{oid: 3836, name: "range_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 3831, nargs: 3},
	{oid: 3837, name: "range_send", args: []any{uint32(3831)}, ret: 17, nargs: 1},
	{oid: 3914, name: "int4range_canonical", args: []any{uint32(3904)}, ret: 3904, nargs: 1},
	{oid: 3915, name: "daterange_canonical", args: []any{uint32(3912)}, ret: 3912, nargs: 1},
	{oid: 3916, name: "range_typanalyze", args: []any{uint32(2281)}, ret: 16, nargs: 1},
	{oid: 3922, name: "int4range_subdiff", args: []any{uint32(23), uint32(23)}, ret: 701, nargs: 2},
	{oid: 3923, name: "int8range_subdiff", args: []any{uint32(20), uint32(20)}, ret: 701, nargs: 2},
	{oid: 3924, name: "numrange_subdiff", args: []any{uint32(1700), uint32(1700)}, ret: 701, nargs: 2},
	{oid: 3925, name: "daterange_subdiff", args: []any{uint32(1082), uint32(1082)}, ret: 701, nargs: 2},
	{oid: 3928, name: "int8range_canonical", args: []any{uint32(3926)}, ret: 3926, nargs: 1},
	{oid: 3929, name: "tsrange_subdiff", args: []any{uint32(1114), uint32(1114)}, ret: 701, nargs: 2},
	{oid: 3930, name: "tstzrange_subdiff", args: []any{uint32(1184), uint32(1184)}, ret: 701, nargs: 2},
	{oid: 4001, name: "jsonpath_in", args: []any{uint32(2275)}, ret: 4072, nargs: 1},
	{oid: 4002, name: "jsonpath_recv", args: []any{uint32(2281)}, ret: 4072, nargs: 1},
	{oid: 4003, name: "jsonpath_out", args: []any{uint32(4072)}, ret: 2275, nargs: 1},
	{oid: 4004, name: "jsonpath_send", args: []any{uint32(4072)}, ret: 17, nargs: 1},
	{oid: 4084, name: "regnamespacein", args: []any{uint32(2275)}, ret: 4089, nargs: 1},
	{oid: 4085, name: "regnamespaceout", args: []any{uint32(4089)}, ret: 2275, nargs: 1},
	{oid: 4087, name: "regnamespacerecv", args: []any{uint32(2281)}, ret: 4089, nargs: 1},
	{oid: 4088, name: "regnamespacesend", args: []any{uint32(4089)}, ret: 17, nargs: 1},
	{oid: 4092, name: "regroleout", args: []any{uint32(4096)}, ret: 2275, nargs: 1},
	{oid: 4094, name: "regrolerecv", args: []any{uint32(2281)}, ret: 4096, nargs: 1},
	{oid: 4095, name: "regrolesend", args: []any{uint32(4096)}, ret: 17, nargs: 1},
	{oid: 4098, name: "regrolein", args: []any{uint32(2275)}, ret: 4096, nargs: 1},
	{oid: 4110, name: "macaddr8_in", args: []any{uint32(2275)}, ret: 774, nargs: 1},
	{oid: 4111, name: "macaddr8_out", args: []any{uint32(774)}, ret: 2275, nargs: 1},
	{oid: 4193, name: "regcollationin", args: []any{uint32(2275)}, ret: 4191, nargs: 1},
	{oid: 4194, name: "regcollationout", args: []any{uint32(4191)}, ret: 2275, nargs: 1},
	{oid: 4196, name: "regcollationrecv", args: []any{uint32(2281)}, ret: 4191, nargs: 1},
	{oid: 4197, name: "regcollationsend", args: []any{uint32(4191)}, ret: 17, nargs: 1},
	{oid: 4226, name: "anycompatiblemultirange_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 4538, nargs: 3},
	{oid: 4227, name: "anycompatiblemultirange_out", args: []any{uint32(4538)}, ret: 2275, nargs: 1},
	{oid: 4229, name: "anymultirange_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 4537, nargs: 3},
	{oid: 4230, name: "anymultirange_out", args: []any{uint32(4537)}, ret: 2275, nargs: 1},
	{oid: 4231, name: "multirange_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 4537, nargs: 3},
	{oid: 4232, name: "multirange_out", args: []any{uint32(4537)}, ret: 2275, nargs: 1},
	{oid: 4233, name: "multirange_recv", args: []any{uint32(2281), uint32(26), uint32(23)}, ret: 4537, nargs: 3},
	{oid: 4234, name: "multirange_send", args: []any{uint32(4537)}, ret: 17, nargs: 1},
	{oid: 4242, name: "multirange_typanalyze", args: []any{uint32(2281)}, ret: 16, nargs: 1},
	{oid: 5086, name: "anycompatible_in", args: []any{uint32(2275)}, ret: 5077, nargs: 1},
	{oid: 5087, name: "anycompatible_out", args: []any{uint32(5077)}, ret: 2275, nargs: 1},
	{oid: 5088, name: "anycompatiblearray_in", args: []any{uint32(2275)}, ret: 5078, nargs: 1},
	{oid: 5089, name: "anycompatiblearray_out", args: []any{uint32(5078)}, ret: 2275, nargs: 1},
	{oid: 5090, name: "anycompatiblearray_recv", args: []any{uint32(2281)}, ret: 5078, nargs: 1},
	{oid: 5091, name: "anycompatiblearray_send", args: []any{uint32(5078)}, ret: 17, nargs: 1},
	{oid: 5092, name: "anycompatiblenonarray_in", args: []any{uint32(2275)}, ret: 5079, nargs: 1},
	{oid: 5093, name: "anycompatiblenonarray_out", args: []any{uint32(5079)}, ret: 2275, nargs: 1},
	{oid: 5094, name: "anycompatiblerange_in", args: []any{uint32(2275), uint32(26), uint32(23)}, ret: 5080, nargs: 3},
	{oid: 5095, name: "anycompatiblerange_out", args: []any{uint32(5080)}, ret: 2275, nargs: 1},
	{oid: 6098, name: "jsonb_subscript_handler", args: []any{uint32(2281)}, ret: 2281, nargs: 1},
	{oid: 6179, name: "array_subscript_handler", args: []any{uint32(2281)}, ret: 2281, nargs: 1},
	{oid: 6180, name: "raw_array_subscript_handler", args: []any{uint32(2281)}, ret: 2281, nargs: 1},
}
