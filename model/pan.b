	switch (t->back) {
	default: Uerror("bad return move");
	case  0: goto R999; /* nothing to undo */

		 /* PROC :init: */

	case 3: // STATE 1
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;

	case 4: // STATE 3
		;
		now.m[ Index(((P3 *)_this)->i, 3) ].up = trpt->bup.oval;
		;
		goto R999;

	case 5: // STATE 8
		;
		((P3 *)_this)->i = trpt->bup.ovals[1];
		now.m[ Index(((P3 *)_this)->i, 3) ].fast = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 6: // STATE 8
		;
		((P3 *)_this)->i = trpt->bup.ovals[1];
		now.m[ Index(((P3 *)_this)->i, 3) ].fast = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 7: // STATE 8
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;

	case 8: // STATE 14
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 10: // STATE 16
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 11: // STATE 17
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;

	case 12: // STATE 23
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 14: // STATE 25
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 15: // STATE 26
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;

	case 16: // STATE 32
		;
		((P3 *)_this)->i = trpt->bup.oval;
		;
		goto R999;

	case 17: // STATE 34
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC World */

	case 18: // STATE 3
		;
		k = trpt->bup.ovals[1];
		now.now = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 19: // STATE 5
		;
		mt = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 21: // STATE 13
		;
		mt = trpt->bup.ovals[2];
		now.m[ Index(k, 3) ].exp[ Index(mt, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(k, 3) ].val[ Index(mt, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 22: // STATE 13
		;
		mt = trpt->bup.oval;
		;
		goto R999;

	case 23: // STATE 19
		;
		k = trpt->bup.oval;
		;
		goto R999;

	case 24: // STATE 27
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 26: // STATE 30
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 27: // STATE 39
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 28: // STATE 39
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 29: // STATE 48
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 31: // STATE 52
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 33: // STATE 55
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 35: // STATE 62
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 36: // STATE 62
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 37: // STATE 69
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 38: // STATE 74
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 39: // STATE 84
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 40: // STATE 84
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 41: // STATE 94
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 42: // STATE 94
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 43: // STATE 100
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 44: // STATE 102
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 45: // STATE 105
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 46: // STATE 111
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 47: // STATE 117
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 48: // STATE 120
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 49: // STATE 136
		;
		mt = trpt->bup.ovals[9];
		k = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 10);
		goto R999;

	case 50: // STATE 140
		;
		k = trpt->bup.ovals[1];
		now.losses = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 51: // STATE 142
		;
		k = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 53: // STATE 148
		;
		XX = 1;
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 0, mop, 1);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 1, ((int)mv), 0);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 2, ((int)mt), 0);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 3, ((int)mtag), 0);
		mop = trpt->bup.ovals[0];
		mv = trpt->bup.ovals[1];
		mt = trpt->bup.ovals[2];
		mtag = trpt->bup.ovals[3];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 54: // STATE 151
		;
		now.zttl[ Index(k, 6) ] = trpt->bup.ovals[1];
		now.zval[ Index(k, 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		;
		;
		
	case 57: // STATE 159
		;
		XX = 1;
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 0, trpt->bup.ovals[0], 1);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 1, trpt->bup.ovals[1], 0);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 2, trpt->bup.ovals[2], 0);
		unrecv(now.req[ Index(((int)k), 6) ], XX-1, 3, trpt->bup.ovals[3], 0);
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 58: // STATE 170
		;
		mop = trpt->bup.ovals[5];
		mtag = trpt->bup.ovals[4];
		mt = trpt->bup.ovals[3];
		mv = trpt->bup.ovals[2];
		k = trpt->bup.ovals[1];
		now.broken[ Index(k, 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 59: // STATE 170
		;
		mop = trpt->bup.ovals[5];
		mtag = trpt->bup.ovals[4];
		mt = trpt->bup.ovals[3];
		mv = trpt->bup.ovals[2];
		k = trpt->bup.ovals[1];
		now.broken[ Index(k, 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 60: // STATE 175
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC Client */

	case 61: // STATE 1
		;
	/* 0 */	((P1 *)_this)->a = trpt->bup.oval;
		;
		;
		goto R999;

	case 62: // STATE 4
		;
		((P1 *)_this)->a = trpt->bup.oval;
		;
		goto R999;

	case 63: // STATE 5
		;
		((P1 *)_this)->v = trpt->bup.oval;
		;
		goto R999;

	case 64: // STATE 11
		;
		((P1 *)_this)->j = trpt->bup.ovals[5];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[4];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		((P1 *)_this)->tag = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 65: // STATE 14
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 66: // STATE 24
		;
		((P1 *)_this)->j = trpt->bup.ovals[3];
		((P1 *)_this)->dl = trpt->bup.ovals[2];
		((P1 *)_this)->start = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		;
		;
		
	case 69: // STATE 52
		;
		((P1 *)_this)->j = trpt->bup.ovals[2];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 71: // STATE 35
		;
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 73: // STATE 37
		;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;
;
		;
		;
		;
		
	case 76: // STATE 52
		;
		((P1 *)_this)->j = trpt->bup.oval;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;

	case 77: // STATE 52
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 78: // STATE 52
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 79: // STATE 58
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 80: // STATE 62
		;
		now.until[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.held[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->dl = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 81: // STATE 67
		;
		((P1 *)_this)->j = trpt->bup.ovals[4];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 82: // STATE 70
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 83: // STATE 79
		;
		((P1 *)_this)->dl = trpt->bup.ovals[2];
		((P1 *)_this)->start = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 84: // STATE 82
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 86: // STATE 85
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 87: // STATE 94
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 88: // STATE 94
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 89: // STATE 103
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 91: // STATE 107
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 93: // STATE 110
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 95: // STATE 117
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 96: // STATE 117
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 97: // STATE 124
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 98: // STATE 129
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 99: // STATE 139
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 100: // STATE 139
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 101: // STATE 149
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 102: // STATE 149
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 103: // STATE 155
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 104: // STATE 157
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 105: // STATE 160
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 106: // STATE 166
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 107: // STATE 172
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 108: // STATE 175
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 109: // STATE 188
		;
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 110: // STATE 192
		;
	/* 1 */	((P1 *)_this)->start = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->dl = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 111: // STATE 197
		;
		((P1 *)_this)->j = trpt->bup.ovals[4];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 112: // STATE 200
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 113: // STATE 209
		;
		((P1 *)_this)->dl = trpt->bup.ovals[2];
		((P1 *)_this)->start = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 114: // STATE 212
		;
		((P1 *)_this)->rounds = trpt->bup.ovals[1];
		((P1 *)_this)->done = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 115: // STATE 213
		;
	/* 0 */	((P1 *)_this)->rounds = trpt->bup.oval;
		;
		;
		goto R999;

	case 116: // STATE 216
		;
		((P1 *)_this)->rounds = trpt->bup.oval;
		;
		goto R999;

	case 117: // STATE 222
		;
		((P1 *)_this)->j = trpt->bup.ovals[5];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[4];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		((P1 *)_this)->tag = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 118: // STATE 225
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 119: // STATE 234
		;
		((P1 *)_this)->j = trpt->bup.ovals[2];
		((P1 *)_this)->dl = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		;
		;
		;
		;
		
	case 123: // STATE 266
		;
		((P1 *)_this)->j = trpt->bup.ovals[2];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 125: // STATE 246
		;
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 127: // STATE 248
		;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;
;
		;
		;
		;
		
	case 130: // STATE 266
		;
		((P1 *)_this)->j = trpt->bup.oval;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;

	case 131: // STATE 266
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 132: // STATE 266
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 133: // STATE 272
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 134: // STATE 275
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->dl = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 136: // STATE 282
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		((P1 *)_this)->done = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 137: // STATE 282
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 138: // STATE 292
		;
		((P1 *)_this)->j = trpt->bup.ovals[4];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 139: // STATE 295
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 140: // STATE 303
		;
		((P1 *)_this)->dl = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 141: // STATE 309
		;
		now.dead[ Index(((P1 *)_this)->v, 8) ] = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->done = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 142: // STATE 312
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 144: // STATE 315
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 145: // STATE 324
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 146: // STATE 324
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 147: // STATE 333
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 149: // STATE 337
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 151: // STATE 340
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 153: // STATE 347
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 154: // STATE 347
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 155: // STATE 354
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 156: // STATE 359
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 157: // STATE 369
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 158: // STATE 369
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 159: // STATE 379
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 160: // STATE 379
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 161: // STATE 385
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 162: // STATE 387
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 163: // STATE 390
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 164: // STATE 396
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 165: // STATE 402
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 166: // STATE 405
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 167: // STATE 424
		;
		((P1 *)_this)->rounds = trpt->bup.ovals[9];
		((P1 *)_this)->done = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 10);
		goto R999;

	case 168: // STATE 424
		;
		((P1 *)_this)->rounds = trpt->bup.ovals[1];
		((P1 *)_this)->done = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 170: // STATE 433
		;
		((P1 *)_this)->t2 = trpt->bup.oval;
		;
		goto R999;

	case 171: // STATE 434
		;
		((P1 *)_this)->t2 = trpt->bup.oval;
		;
		goto R999;

	case 172: // STATE 442
		;
		((P1 *)_this)->j = trpt->bup.ovals[5];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[4];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		((P1 *)_this)->tag = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 173: // STATE 445
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 174: // STATE 454
		;
		((P1 *)_this)->dl = trpt->bup.ovals[2];
		((P1 *)_this)->start = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 175: // STATE 460
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.until[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 176: // STATE 460
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;
;
		;
		;
		;
		
	case 179: // STATE 488
		;
		((P1 *)_this)->j = trpt->bup.ovals[2];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 181: // STATE 471
		;
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 183: // STATE 473
		;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;
;
		;
		;
		;
		
	case 186: // STATE 488
		;
		((P1 *)_this)->j = trpt->bup.oval;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;

	case 187: // STATE 488
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 188: // STATE 488
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 189: // STATE 494
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 190: // STATE 497
		;
		now.until[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->dl = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 191: // STATE 500
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 193: // STATE 503
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 194: // STATE 512
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 195: // STATE 512
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 196: // STATE 521
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 198: // STATE 525
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 200: // STATE 528
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 202: // STATE 535
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 203: // STATE 535
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 204: // STATE 542
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 205: // STATE 547
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 206: // STATE 557
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 207: // STATE 557
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 208: // STATE 567
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 209: // STATE 567
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 210: // STATE 573
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 211: // STATE 575
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 212: // STATE 578
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 213: // STATE 584
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 214: // STATE 590
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 215: // STATE 593
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 216: // STATE 606
		;
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 217: // STATE 609
		;
	/* 2 */	((P1 *)_this)->t2 = trpt->bup.ovals[2];
	/* 1 */	((P1 *)_this)->start = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->dl = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 218: // STATE 612
		;
		now.held[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.until[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		
	case 219: // STATE 615
		goto R999;

	case 220: // STATE 623
		;
		((P1 *)_this)->j = trpt->bup.ovals[4];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 221: // STATE 626
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 222: // STATE 636
		;
		((P1 *)_this)->t2 = trpt->bup.ovals[3];
		((P1 *)_this)->dl = trpt->bup.ovals[2];
		((P1 *)_this)->start = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 223: // STATE 643
		;
		now.until[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.held[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 224: // STATE 649
		;
		((P1 *)_this)->j = trpt->bup.ovals[5];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[4];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		((P1 *)_this)->tag = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 225: // STATE 652
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 226: // STATE 660
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		((P1 *)_this)->j = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		;
		;
		
	case 229: // STATE 688
		;
		((P1 *)_this)->j = trpt->bup.ovals[2];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 231: // STATE 671
		;
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 233: // STATE 673
		;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;
;
		;
		;
		;
		
	case 236: // STATE 688
		;
		((P1 *)_this)->j = trpt->bup.oval;
		_m = unsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		;
		goto R999;

	case 237: // STATE 688
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 238: // STATE 688
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;

	case 239: // STATE 698
		;
		((P1 *)_this)->j = trpt->bup.ovals[4];
		now.bad[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[3];
		now.nos[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[2];
		now.oks[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[1];
		now.cur[ Index(((P1 *)_this)->c, 2) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 240: // STATE 701
		;
		((P1 *)_this)->j = trpt->bup.ovals[1];
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 241: // STATE 707
		;
		((P1 *)_this)->j = trpt->bup.oval;
		;
		goto R999;
;
		
	case 242: // STATE 711
		goto R999;

	case 243: // STATE 714
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC Master */

	case 244: // STATE 2
		;
		mc = trpt->bup.oval;
		;
		goto R999;

	case 245: // STATE 3
		;
		XX = 1;
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, mop, 1);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, ((int)mv), 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, ((int)mt), 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, ((int)mtag), 0);
		mop = trpt->bup.ovals[0];
		mv = trpt->bup.ovals[1];
		mt = trpt->bup.ovals[2];
		mtag = trpt->bup.ovals[3];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 246: // STATE 6
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[1];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 247: // STATE 8
		;
		mres = trpt->bup.oval;
		;
		goto R999;

	case 248: // STATE 10
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 250: // STATE 17
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 251: // STATE 17
		;
		s = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 253: // STATE 28
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 255: // STATE 31
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 256: // STATE 41
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 257: // STATE 41
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 258: // STATE 41
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 259: // STATE 98
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 260: // STATE 98
		;
		writer = trpt->bup.ovals[4];
		busy = trpt->bup.ovals[3];
		s1 = trpt->bup.ovals[2];
		mres = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;
;
		;
		
	case 262: // STATE 62
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 264: // STATE 65
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 265: // STATE 75
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 266: // STATE 75
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 267: // STATE 75
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 268: // STATE 98
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 269: // STATE 98
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 270: // STATE 98
		;
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 271: // STATE 103
		;
		now.answered[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;

	case 272: // STATE 105
		;
		now.nos[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 273: // STATE 107
		;
		now.oks[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 274: // STATE 109
		;
		now.bad[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 275: // STATE 117
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 277: // STATE 120
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 278: // STATE 129
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 279: // STATE 129
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 280: // STATE 138
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 282: // STATE 142
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 284: // STATE 145
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 286: // STATE 152
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 287: // STATE 152
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 288: // STATE 159
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 289: // STATE 164
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 290: // STATE 174
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 291: // STATE 174
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 292: // STATE 184
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 293: // STATE 184
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 294: // STATE 190
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 295: // STATE 192
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 296: // STATE 195
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 297: // STATE 201
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 298: // STATE 207
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 299: // STATE 210
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 300: // STATE 230
		;
		mop = trpt->bup.ovals[13];
		mres = trpt->bup.ovals[12];
		mtag = trpt->bup.ovals[11];
		mt = trpt->bup.ovals[10];
		mv = trpt->bup.ovals[9];
		mc = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 14);
		goto R999;

	case 301: // STATE 233
		;
		mc = trpt->bup.oval;
		;
		goto R999;

	case 302: // STATE 234
		;
		mres = trpt->bup.oval;
		;
		goto R999;

	case 303: // STATE 236
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 305: // STATE 243
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 306: // STATE 243
		;
		s = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 308: // STATE 254
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 310: // STATE 257
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 311: // STATE 267
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 312: // STATE 267
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 313: // STATE 267
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 314: // STATE 327
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 315: // STATE 327
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[5];
		writer = trpt->bup.ovals[4];
		busy = trpt->bup.ovals[3];
		s1 = trpt->bup.ovals[2];
		mres = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 7);
		goto R999;
;
		;
		
	case 317: // STATE 288
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 319: // STATE 291
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 320: // STATE 301
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 321: // STATE 301
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 322: // STATE 301
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 323: // STATE 327
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 324: // STATE 327
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 325: // STATE 327
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[4];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 326: // STATE 330
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 328: // STATE 333
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 329: // STATE 342
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 330: // STATE 342
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 331: // STATE 351
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 333: // STATE 355
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 335: // STATE 358
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 337: // STATE 365
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 338: // STATE 365
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 339: // STATE 372
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 340: // STATE 377
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 341: // STATE 387
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 342: // STATE 387
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 343: // STATE 397
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 344: // STATE 397
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 345: // STATE 403
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 346: // STATE 405
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 347: // STATE 408
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 348: // STATE 414
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 349: // STATE 420
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 350: // STATE 423
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 351: // STATE 439
		;
		mres = trpt->bup.ovals[9];
		mc = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 10);
		goto R999;

	case 352: // STATE 442
		;
		mc = trpt->bup.oval;
		;
		goto R999;

	case 353: // STATE 443
		;
		XX = 1;
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, mop, 1);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, ((int)mv), 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, ((int)mt), 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, ((int)mtag), 0);
		mop = trpt->bup.ovals[0];
		mv = trpt->bup.ovals[1];
		mt = trpt->bup.ovals[2];
		mtag = trpt->bup.ovals[3];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 354: // STATE 446
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[1];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 355: // STATE 448
		;
		mres = trpt->bup.oval;
		;
		goto R999;

	case 356: // STATE 450
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 358: // STATE 457
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 359: // STATE 457
		;
		s = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 361: // STATE 468
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 363: // STATE 471
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 364: // STATE 481
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 365: // STATE 481
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 366: // STATE 481
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 367: // STATE 538
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 368: // STATE 538
		;
		writer = trpt->bup.ovals[4];
		busy = trpt->bup.ovals[3];
		s1 = trpt->bup.ovals[2];
		mres = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;
;
		;
		
	case 370: // STATE 502
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 372: // STATE 505
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 373: // STATE 515
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 374: // STATE 515
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 375: // STATE 515
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 376: // STATE 538
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 377: // STATE 538
		;
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 6);
		goto R999;

	case 378: // STATE 538
		;
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 379: // STATE 543
		;
		now.answered[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.oval;
		;
		goto R999;

	case 380: // STATE 545
		;
		now.nos[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 381: // STATE 547
		;
		now.oks[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 382: // STATE 549
		;
		now.bad[ Index(mc, 2) ] = trpt->bup.oval;
		;
		goto R999;

	case 383: // STATE 557
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 385: // STATE 560
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 386: // STATE 569
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 387: // STATE 569
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 388: // STATE 578
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 390: // STATE 582
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 392: // STATE 585
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 394: // STATE 592
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 395: // STATE 592
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 396: // STATE 599
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 397: // STATE 604
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 398: // STATE 614
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 399: // STATE 614
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 400: // STATE 624
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 401: // STATE 624
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 402: // STATE 630
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 403: // STATE 632
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 404: // STATE 635
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 405: // STATE 641
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 406: // STATE 647
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 407: // STATE 650
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 408: // STATE 670
		;
		mop = trpt->bup.ovals[13];
		mres = trpt->bup.ovals[12];
		mtag = trpt->bup.ovals[11];
		mt = trpt->bup.ovals[10];
		mv = trpt->bup.ovals[9];
		mc = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 14);
		goto R999;

	case 409: // STATE 673
		;
		mc = trpt->bup.oval;
		;
		goto R999;

	case 410: // STATE 674
		;
		mres = trpt->bup.oval;
		;
		goto R999;

	case 411: // STATE 676
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 413: // STATE 683
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 414: // STATE 683
		;
		s = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 416: // STATE 694
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 418: // STATE 697
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 419: // STATE 707
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 420: // STATE 707
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 421: // STATE 707
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 422: // STATE 767
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 423: // STATE 767
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[5];
		writer = trpt->bup.ovals[4];
		busy = trpt->bup.ovals[3];
		s1 = trpt->bup.ovals[2];
		mres = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 7);
		goto R999;
;
		;
		
	case 425: // STATE 728
		;
		s = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 427: // STATE 731
		;
		busy = trpt->bup.oval;
		;
		goto R999;

	case 428: // STATE 741
		;
		s = trpt->bup.ovals[1];
		writer = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 429: // STATE 741
		;
		s = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 430: // STATE 741
		;
		s = trpt->bup.oval;
		;
		goto R999;

	case 431: // STATE 767
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 432: // STATE 767
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[7];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[6];
		writer = trpt->bup.ovals[5];
		busy = trpt->bup.ovals[4];
		s1 = trpt->bup.ovals[3];
		mres = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 8);
		goto R999;

	case 433: // STATE 767
		;
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[4];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[3];
		writer = trpt->bup.ovals[2];
		busy = trpt->bup.ovals[1];
		s1 = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 5);
		goto R999;

	case 434: // STATE 770
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 436: // STATE 773
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 437: // STATE 782
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 438: // STATE 782
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 439: // STATE 791
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 441: // STATE 795
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 443: // STATE 798
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 445: // STATE 805
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 446: // STATE 805
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 447: // STATE 812
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 448: // STATE 817
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 449: // STATE 827
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 450: // STATE 827
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 451: // STATE 837
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 452: // STATE 837
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 453: // STATE 843
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 454: // STATE 845
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 455: // STATE 848
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 456: // STATE 854
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 457: // STATE 860
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 458: // STATE 863
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 459: // STATE 879
		;
		mres = trpt->bup.ovals[9];
		mc = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 10);
		goto R999;

	case 460: // STATE 884
		;
		mc = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].up = trpt->bup.ovals[1];
		now.crashes = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		;
		;
		
	case 463: // STATE 887
		;
		XX = 1;
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, trpt->bup.ovals[0], 1);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, trpt->bup.ovals[1], 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, trpt->bup.ovals[2], 0);
		unrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, trpt->bup.ovals[3], 0);
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 464: // STATE 896
		;
		mc = trpt->bup.ovals[3];
		now.broken[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[2];
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[1];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 465: // STATE 896
		;
		mc = trpt->bup.ovals[3];
		now.broken[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[2];
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[1];
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 466: // STATE 902
		;
		mc = trpt->bup.oval;
		;
		goto R999;

	case 467: // STATE 906
		;
		mc = trpt->bup.ovals[2];
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(mc, 1) ] = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(mc, 1) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 468: // STATE 914
		;
		ck_i = trpt->bup.ovals[2];
		ck_nw = trpt->bup.ovals[1];
		ck_nh = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		;
		
	case 470: // STATE 917
		;
		ck_nh = trpt->bup.oval;
		;
		goto R999;

	case 471: // STATE 926
		;
		ck_i = trpt->bup.ovals[1];
		ck_nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 472: // STATE 926
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 473: // STATE 935
		;
		ck_i = trpt->bup.ovals[1];
		ck_ok = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 475: // STATE 939
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 477: // STATE 942
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		;
		
	case 479: // STATE 949
		;
		ck_s = trpt->bup.ovals[1];
		ck_g = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 480: // STATE 949
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 481: // STATE 956
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 482: // STATE 961
		;
		ck_g = trpt->bup.oval;
		;
		goto R999;

	case 483: // STATE 971
		;
		ck_j = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 484: // STATE 971
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 485: // STATE 981
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 486: // STATE 981
		;
		ck_i = trpt->bup.oval;
		;
		goto R999;

	case 487: // STATE 987
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 488: // STATE 989
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 489: // STATE 992
		;
		ck_s = trpt->bup.oval;
		;
		goto R999;

	case 490: // STATE 998
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 491: // STATE 1004
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 492: // STATE 1007
		;
		ck_j = trpt->bup.oval;
		;
		goto R999;

	case 493: // STATE 1022
		;
		mc = trpt->bup.ovals[8];
		ck_g = trpt->bup.ovals[7];
		ck_ok = trpt->bup.ovals[6];
		ck_nw = trpt->bup.ovals[5];
		ck_nh = trpt->bup.ovals[4];
		ck_s = trpt->bup.ovals[3];
		ck_j = trpt->bup.ovals[2];
		ck_i = trpt->bup.ovals[1];
		ck_q = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 9);
		goto R999;

	case 494: // STATE 1026
		;
		now.m[ Index(((P0 *)_this)->j, 3) ].since = trpt->bup.ovals[1];
		now.m[ Index(((P0 *)_this)->j, 3) ].up = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 495: // STATE 1031
		;
		p_restor(II);
		;
		;
		goto R999;
	}

