#define rand	pan_rand
#define pthread_equal(a,b)	((a)==(b))
#if defined(HAS_CODE) && defined(VERBOSE)
	#ifdef BFS_PAR
		bfs_printf("Pr: %d Tr: %d\n", II, t->forw);
	#else
		cpu_printf("Pr: %d Tr: %d\n", II, t->forw);
	#endif
#endif
	switch (t->forw) {
	default: Uerror("bad forward move");
	case 0:	/* if without executable clauses */
		continue;
	case 1: /* generic 'goto' or 'skip' */
		IfNotBlocked
		_m = 3; goto P999;
	case 2: /* generic 'else' */
		IfNotBlocked
		if (trpt->o_pm&1) continue;
		_m = 3; goto P999;

		 /* PROC :init: */
	case 3: // STATE 1 - redlock.pml:277 - [i = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[3][1] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = 0;
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 4: // STATE 2 - redlock.pml:277 - [((i<=(3-1)))] (6:0:1 - 1)
		IfNotBlocked
		reached[3][2] = 1;
		if (!((((int)((P3 *)_this)->i)<=(3-1))))
			continue;
		/* merge: m[i].up = 1(0, 3, 6) */
		reached[3][3] = 1;
		(trpt+1)->bup.oval = ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].up);
		now.m[ Index(((P3 *)_this)->i, 3) ].up = 1;
#ifdef VAR_RANGES
		logval("m[:init::i].up", ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].up));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 5: // STATE 4 - redlock.pml:280 - [m[i].fast = 0] (0:11:2 - 1)
		IfNotBlocked
		reached[3][4] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].fast);
		now.m[ Index(((P3 *)_this)->i, 3) ].fast = 0;
#ifdef VAR_RANGES
		logval("m[:init::i].fast", ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].fast));
#endif
		;
		/* merge: .(goto)(11, 7, 11) */
		reached[3][7] = 1;
		;
		/* merge: i = (i+1)(11, 8, 11) */
		reached[3][8] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = (((int)((P3 *)_this)->i)+1);
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		/* merge: .(goto)(0, 12, 11) */
		reached[3][12] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 6: // STATE 5 - redlock.pml:281 - [m[i].fast = 1] (0:11:2 - 1)
		IfNotBlocked
		reached[3][5] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].fast);
		now.m[ Index(((P3 *)_this)->i, 3) ].fast = 1;
#ifdef VAR_RANGES
		logval("m[:init::i].fast", ((int)now.m[ Index(((int)((P3 *)_this)->i), 3) ].fast));
#endif
		;
		/* merge: .(goto)(11, 7, 11) */
		reached[3][7] = 1;
		;
		/* merge: i = (i+1)(11, 8, 11) */
		reached[3][8] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = (((int)((P3 *)_this)->i)+1);
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		/* merge: .(goto)(0, 12, 11) */
		reached[3][12] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 7: // STATE 8 - redlock.pml:277 - [i = (i+1)] (0:11:1 - 3)
		IfNotBlocked
		reached[3][8] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = (((int)((P3 *)_this)->i)+1);
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		/* merge: .(goto)(0, 12, 11) */
		reached[3][12] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 8: // STATE 14 - redlock.pml:284 - [i = 0] (0:20:1 - 3)
		IfNotBlocked
		reached[3][14] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = 0;
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		/* merge: .(goto)(0, 21, 20) */
		reached[3][21] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 9: // STATE 15 - redlock.pml:284 - [((i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[3][15] = 1;
		if (!((((int)((P3 *)_this)->i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 10: // STATE 16 - redlock.pml:290 - [(run Client(i))] (0:0:0 - 1)
		IfNotBlocked
		reached[3][16] = 1;
		if (!(addproc(II, 1, 1, ((int)((P3 *)_this)->i))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 11: // STATE 17 - redlock.pml:284 - [i = (i+1)] (0:0:1 - 1)
		IfNotBlocked
		reached[3][17] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = (((int)((P3 *)_this)->i)+1);
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 12: // STATE 23 - redlock.pml:292 - [i = 0] (0:29:1 - 3)
		IfNotBlocked
		reached[3][23] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = 0;
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		/* merge: .(goto)(0, 30, 29) */
		reached[3][30] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 13: // STATE 24 - redlock.pml:292 - [((i<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[3][24] = 1;
		if (!((((int)((P3 *)_this)->i)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 14: // STATE 25 - redlock.pml:293 - [(run Master(i))] (0:0:0 - 1)
		IfNotBlocked
		reached[3][25] = 1;
		if (!(addproc(II, 1, 0, ((int)((P3 *)_this)->i))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 15: // STATE 26 - redlock.pml:292 - [i = (i+1)] (0:0:1 - 1)
		IfNotBlocked
		reached[3][26] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = (((int)((P3 *)_this)->i)+1);
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 16: // STATE 32 - redlock.pml:295 - [i = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[3][32] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->i);
		((P3 *)_this)->i = 0;
#ifdef VAR_RANGES
		logval(":init::i", ((int)((P3 *)_this)->i));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 17: // STATE 34 - redlock.pml:297 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[3][34] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC World */
	case 18: // STATE 1 - redlock.pml:234 - [((now<10))] (22:0:2 - 1)
		IfNotBlocked
		reached[2][1] = 1;
		if (!((((int)now.now)<10)))
			continue;
		/* merge: now = (now+1)(22, 2, 22) */
		reached[2][2] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.now);
		now.now = (((int)now.now)+1);
#ifdef VAR_RANGES
		logval("now", ((int)now.now));
#endif
		;
		/* merge: k = 0(22, 3, 22) */
		reached[2][3] = 1;
		(trpt+1)->bup.ovals[1] = ((int)k);
		k = 0;
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: .(goto)(0, 23, 22) */
		reached[2][23] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 19: // STATE 4 - redlock.pml:236 - [((k<=(3-1)))] (16:0:1 - 1)
		IfNotBlocked
		reached[2][4] = 1;
		if (!((((int)k)<=(3-1))))
			continue;
		/* merge: mt = 0(0, 5, 16) */
		reached[2][5] = 1;
		(trpt+1)->bup.oval = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: .(goto)(0, 17, 16) */
		reached[2][17] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 20: // STATE 6 - redlock.pml:237 - [((mt<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][6] = 1;
		if (!((((int)mt)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 21: // STATE 7 - redlock.pml:239 - [(((m[k].val[mt]!=0)&&(m[k].exp[mt]<=now)))] (16:0:3 - 1)
		IfNotBlocked
		reached[2][7] = 1;
		if (!(((((int)now.m[ Index(((int)k), 3) ].val[ Index(((int)mt), 1) ])!=0)&&(((int)now.m[ Index(((int)k), 3) ].exp[ Index(((int)mt), 1) ])<=((int)now.now)))))
			continue;
		/* merge: m[k].val[mt] = 0(16, 8, 16) */
		reached[2][8] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)k), 3) ].val[ Index(((int)mt), 1) ]);
		now.m[ Index(k, 3) ].val[ Index(mt, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[k].val[mt]", ((int)now.m[ Index(((int)k), 3) ].val[ Index(((int)mt), 1) ]));
#endif
		;
		/* merge: m[k].exp[mt] = 0(16, 9, 16) */
		reached[2][9] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)k), 3) ].exp[ Index(((int)mt), 1) ]);
		now.m[ Index(k, 3) ].exp[ Index(mt, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[k].exp[mt]", ((int)now.m[ Index(((int)k), 3) ].exp[ Index(((int)mt), 1) ]));
#endif
		;
		/* merge: .(goto)(16, 12, 16) */
		reached[2][12] = 1;
		;
		/* merge: mt = (mt+1)(16, 13, 16) */
		reached[2][13] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mt);
		mt = (((int)mt)+1);
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: .(goto)(0, 17, 16) */
		reached[2][17] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 22: // STATE 13 - redlock.pml:237 - [mt = (mt+1)] (0:16:1 - 3)
		IfNotBlocked
		reached[2][13] = 1;
		(trpt+1)->bup.oval = ((int)mt);
		mt = (((int)mt)+1);
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: .(goto)(0, 17, 16) */
		reached[2][17] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 23: // STATE 19 - redlock.pml:236 - [k = (k+1)] (0:22:1 - 3)
		IfNotBlocked
		reached[2][19] = 1;
		(trpt+1)->bup.oval = ((int)k);
		k = (((int)k)+1);
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: .(goto)(0, 23, 22) */
		reached[2][23] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 24: // STATE 25 - redlock.pml:168 - [ck_nh = 0] (0:42:3 - 1)
		IfNotBlocked
		reached[2][25] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(42, 26, 42) */
		reached[2][26] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(42, 27, 42) */
		reached[2][27] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 43, 42) */
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 25: // STATE 28 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][28] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 26: // STATE 29 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (34:0:1 - 1)
		IfNotBlocked
		reached[2][29] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 30, 34) */
		reached[2][30] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 27: // STATE 31 - redlock.pml:175 - [((role[ck_i]==0))] (42:0:2 - 1)
		IfNotBlocked
		reached[2][31] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(42, 32, 42) */
		reached[2][32] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(42, 35, 42) */
		reached[2][35] = 1;
		;
		/* merge: .(goto)(42, 38, 42) */
		reached[2][38] = 1;
		;
		/* merge: ck_i = (ck_i+1)(42, 39, 42) */
		reached[2][39] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 43, 42) */
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 28: // STATE 39 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:42:1 - 5)
		IfNotBlocked
		reached[2][39] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 43, 42) */
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 29: // STATE 45 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:97:2 - 3)
		IfNotBlocked
		reached[2][45] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(97, 47, 97) */
		reached[2][47] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(97, 48, 97) */
		reached[2][48] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[2][98] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 30: // STATE 49 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][49] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 31: // STATE 50 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (87:0:2 - 1)
		IfNotBlocked
		reached[2][50] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(87, 51, 87) */
		reached[2][51] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(87, 52, 87) */
		reached[2][52] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 88, 87) */
		reached[2][88] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 32: // STATE 53 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][53] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 33: // STATE 54 - redlock.pml:146 - [ck_g = 0] (0:65:2 - 1)
		IfNotBlocked
		reached[2][54] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(65, 55, 65) */
		reached[2][55] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 66, 65) */
		reached[2][66] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 34: // STATE 56 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][56] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 35: // STATE 57 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (65:0:2 - 1)
		IfNotBlocked
		reached[2][57] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(65, 58, 65) */
		reached[2][58] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(65, 61, 65) */
		reached[2][61] = 1;
		;
		/* merge: ck_s = (ck_s+1)(65, 62, 65) */
		reached[2][62] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 66, 65) */
		reached[2][66] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 36: // STATE 62 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:65:1 - 3)
		IfNotBlocked
		reached[2][62] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 66, 65) */
		reached[2][66] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 37: // STATE 68 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (76:0:1 - 1)
		IfNotBlocked
		reached[2][68] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 69, 76) */
		reached[2][69] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 72, 76) */
		reached[2][72] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 38: // STATE 73 - redlock.pml:160 - [(!(m[ck_j].up))] (82:0:1 - 1)
		IfNotBlocked
		reached[2][73] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 74, 82) */
		reached[2][74] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 77, 82) */
		reached[2][77] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 39: // STATE 79 - redlock.pml:205 - [(ck_g)] (87:0:2 - 1)
		IfNotBlocked
		reached[2][79] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(87, 80, 87) */
		reached[2][80] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(87, 83, 87) */
		reached[2][83] = 1;
		;
		/* merge: ck_j = (ck_j+1)(87, 84, 87) */
		reached[2][84] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 88, 87) */
		reached[2][88] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 40: // STATE 84 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:87:1 - 3)
		IfNotBlocked
		reached[2][84] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 88, 87) */
		reached[2][88] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 41: // STATE 90 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:97:1 - 3)
		IfNotBlocked
		reached[2][90] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(97, 93, 97) */
		reached[2][93] = 1;
		;
		/* merge: ck_i = (ck_i+1)(97, 94, 97) */
		reached[2][94] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[2][98] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 42: // STATE 94 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:97:1 - 3)
		IfNotBlocked
		reached[2][94] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[2][98] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 43: // STATE 100 - redlock.pml:213 - [ck_j = 0] (0:114:1 - 3)
		IfNotBlocked
		reached[2][100] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 115, 114) */
		reached[2][115] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 44: // STATE 101 - redlock.pml:213 - [((ck_j<=(3-1)))] (108:0:1 - 1)
		IfNotBlocked
		reached[2][101] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 102, 108) */
		reached[2][102] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 109, 108) */
		reached[2][109] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 45: // STATE 103 - redlock.pml:214 - [((ck_s<=(1-1)))] (108:0:1 - 1)
		IfNotBlocked
		reached[2][103] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(108, 104, 108) */
		reached[2][104] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(108, 105, 108) */
		reached[2][105] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 109, 108) */
		reached[2][109] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 46: // STATE 111 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:114:1 - 3)
		IfNotBlocked
		reached[2][111] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 115, 114) */
		reached[2][115] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 47: // STATE 117 - redlock.pml:218 - [ck_j = 0] (0:123:1 - 3)
		IfNotBlocked
		reached[2][117] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 124, 123) */
		reached[2][124] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 48: // STATE 118 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (123:0:1 - 1)
		IfNotBlocked
		reached[2][118] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(123, 119, 123) */
		reached[2][119] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(123, 120, 123) */
		reached[2][120] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 124, 123) */
		reached[2][124] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 49: // STATE 126 - redlock.pml:221 - [ck_q = 0] (0:172:10 - 3)
		IfNotBlocked
		reached[2][126] = 1;
		(trpt+1)->bup.ovals = grab_ints(10);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(172, 127, 172) */
		reached[2][127] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(172, 128, 172) */
		reached[2][128] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(172, 129, 172) */
		reached[2][129] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(172, 130, 172) */
		reached[2][130] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(172, 131, 172) */
		reached[2][131] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(172, 132, 172) */
		reached[2][132] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(172, 133, 172) */
		reached[2][133] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: k = 0(172, 135, 172) */
		reached[2][135] = 1;
		(trpt+1)->bup.ovals[8] = ((int)k);
		k = 0;
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: mt = 0(172, 136, 172) */
		reached[2][136] = 1;
		(trpt+1)->bup.ovals[9] = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: .(goto)(0, 173, 172) */
		reached[2][173] = 1;
		;
		_m = 3; goto P999; /* 10 */
	case 50: // STATE 138 - redlock.pml:251 - [((losses<0))] (144:0:2 - 1)
		IfNotBlocked
		reached[2][138] = 1;
		if (!((((int)now.losses)<0)))
			continue;
		/* merge: losses = (losses+1)(144, 139, 144) */
		reached[2][139] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.losses);
		now.losses = (((int)now.losses)+1);
#ifdef VAR_RANGES
		logval("losses", ((int)now.losses));
#endif
		;
		/* merge: k = 0(144, 140, 144) */
		reached[2][140] = 1;
		(trpt+1)->bup.ovals[1] = ((int)k);
		k = 0;
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: .(goto)(0, 145, 144) */
		reached[2][145] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 51: // STATE 141 - redlock.pml:253 - [((k<((2*3)-1)))] (144:0:1 - 1)
		IfNotBlocked
		reached[2][141] = 1;
		if (!((((int)k)<((2*3)-1))))
			continue;
		/* merge: k = (k+1)(0, 142, 144) */
		reached[2][142] = 1;
		(trpt+1)->bup.oval = ((int)k);
		k = (((int)k)+1);
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: .(goto)(0, 145, 144) */
		reached[2][145] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 52: // STATE 147 - redlock.pml:255 - [(nempty(req[k]))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][147] = 1;
		if (!((q_len(now.req[ Index(((int)k), 6) ])>0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 53: // STATE 148 - redlock.pml:256 - [req[k]?mop,mv,mt,mtag] (0:0:4 - 1)
		reached[2][148] = 1;
		if (q_len(now.req[ Index(((int)k), 6) ]) == 0) continue;

		XX=1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = mop;
		(trpt+1)->bup.ovals[1] = ((int)mv);
		(trpt+1)->bup.ovals[2] = ((int)mt);
		(trpt+1)->bup.ovals[3] = ((int)mtag);
		;
		mop = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 0, 0);
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		mv = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 1, 0);
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		mt = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 2, 0);
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		mtag = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 3, 1);
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[32];
			sprintf(simvals, "%d?", now.req[ Index(((int)k), 6) ]);
		sprintf(simtmp, "%d", mop); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mv)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mt)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mtag)); strcat(simvals, simtmp);		}
#endif
		;
		_m = 4; goto P999; /* 0 */
	case 54: // STATE 149 - redlock.pml:258 - [((mop==SET))] (162:0:2 - 1)
		IfNotBlocked
		reached[2][149] = 1;
		if (!((mop==4)))
			continue;
		/* merge: zval[k] = mv(162, 150, 162) */
		reached[2][150] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.zval[ Index(((int)k), 6) ]);
		now.zval[ Index(k, 6) ] = ((int)mv);
#ifdef VAR_RANGES
		logval("zval[k]", ((int)now.zval[ Index(((int)k), 6) ]));
#endif
		;
		/* merge: zttl[k] = mt(162, 151, 162) */
		reached[2][151] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.zttl[ Index(((int)k), 6) ]);
		now.zttl[ Index(k, 6) ] = ((int)mt);
#ifdef VAR_RANGES
		logval("zttl[k]", ((int)now.zttl[ Index(((int)k), 6) ]));
#endif
		;
		/* merge: .(goto)(0, 154, 162) */
		reached[2][154] = 1;
		;
		/* merge: .(goto)(0, 157, 162) */
		reached[2][157] = 1;
		;
		/* merge: .(goto)(0, 163, 162) */
		reached[2][163] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 55: // STATE 155 - redlock.pml:261 - [(empty(req[k]))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][155] = 1;
		if (!((q_len(now.req[ Index(((int)k), 6) ])==0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 56: // STATE 158 - redlock.pml:264 - [(nempty(req[k]))] (0:0:0 - 1)
		IfNotBlocked
		reached[2][158] = 1;
		if (!((q_len(now.req[ Index(((int)k), 6) ])>0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 57: // STATE 159 - redlock.pml:264 - [req[k]?_,_,_,_] (0:0:4 - 1)
		reached[2][159] = 1;
		if (q_len(now.req[ Index(((int)k), 6) ]) == 0) continue;

		XX=1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 0, 0);
		(trpt+1)->bup.ovals[1] = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 1, 0);
		(trpt+1)->bup.ovals[2] = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 2, 0);
		(trpt+1)->bup.ovals[3] = qrecv(now.req[ Index(((int)k), 6) ], XX-1, 3, 0);
		;
		qrecv(now.req[ Index(((int)k), 6) ], XX-1, 0, 0);
		qrecv(now.req[ Index(((int)k), 6) ], XX-1, 1, 0);
		qrecv(now.req[ Index(((int)k), 6) ], XX-1, 2, 0);
		qrecv(now.req[ Index(((int)k), 6) ], XX-1, 3, 1);
		
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[32];
			sprintf(simvals, "%d?", now.req[ Index(((int)k), 6) ]);
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		}
#endif
		;
		_m = 4; goto P999; /* 0 */
	case 58: // STATE 160 - redlock.pml:265 - [(empty(req[k]))] (172:0:6 - 1)
		IfNotBlocked
		reached[2][160] = 1;
		if (!((q_len(now.req[ Index(((int)k), 6) ])==0)))
			continue;
		/* merge: goto :b99(172, 161, 172) */
		reached[2][161] = 1;
		;
		/* merge: broken[k] = 1(172, 165, 172) */
		reached[2][165] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.broken[ Index(((int)k), 6) ]);
		now.broken[ Index(k, 6) ] = 1;
#ifdef VAR_RANGES
		logval("broken[k]", ((int)now.broken[ Index(((int)k), 6) ]));
#endif
		;
		/* merge: k = 0(172, 166, 172) */
		reached[2][166] = 1;
		(trpt+1)->bup.ovals[1] = ((int)k);
		k = 0;
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: mv = 0(172, 167, 172) */
		reached[2][167] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mv);
		mv = 0;
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		/* merge: mt = 0(172, 168, 172) */
		reached[2][168] = 1;
		(trpt+1)->bup.ovals[3] = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: mtag = 0(172, 169, 172) */
		reached[2][169] = 1;
		(trpt+1)->bup.ovals[4] = ((int)mtag);
		mtag = 0;
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		/* merge: mop = 0(172, 170, 172) */
		reached[2][170] = 1;
		(trpt+1)->bup.ovals[5] = mop;
		mop = 0;
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		/* merge: .(goto)(0, 173, 172) */
		reached[2][173] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 59: // STATE 165 - redlock.pml:267 - [broken[k] = 1] (0:172:6 - 3)
		IfNotBlocked
		reached[2][165] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.broken[ Index(((int)k), 6) ]);
		now.broken[ Index(k, 6) ] = 1;
#ifdef VAR_RANGES
		logval("broken[k]", ((int)now.broken[ Index(((int)k), 6) ]));
#endif
		;
		/* merge: k = 0(172, 166, 172) */
		reached[2][166] = 1;
		(trpt+1)->bup.ovals[1] = ((int)k);
		k = 0;
#ifdef VAR_RANGES
		logval("k", ((int)k));
#endif
		;
		/* merge: mv = 0(172, 167, 172) */
		reached[2][167] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mv);
		mv = 0;
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		/* merge: mt = 0(172, 168, 172) */
		reached[2][168] = 1;
		(trpt+1)->bup.ovals[3] = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: mtag = 0(172, 169, 172) */
		reached[2][169] = 1;
		(trpt+1)->bup.ovals[4] = ((int)mtag);
		mtag = 0;
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		/* merge: mop = 0(172, 170, 172) */
		reached[2][170] = 1;
		(trpt+1)->bup.ovals[5] = mop;
		mop = 0;
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		/* merge: .(goto)(0, 173, 172) */
		reached[2][173] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 60: // STATE 175 - redlock.pml:271 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[2][175] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC Client */
	case 61: // STATE 1 - client.pml:131 - [((a==2))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][1] = 1;
		if (!((((int)((P1 *)_this)->a)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: a */  (trpt+1)->bup.oval = ((P1 *)_this)->a;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->a = 0;
		_m = 3; goto P999; /* 0 */
	case 62: // STATE 3 - client.pml:132 - [((a<2))] (59:0:1 - 1)
		IfNotBlocked
		reached[1][3] = 1;
		if (!((((int)((P1 *)_this)->a)<2)))
			continue;
		/* merge: a = (a+1)(0, 4, 59) */
		reached[1][4] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->a);
		((P1 *)_this)->a = (((int)((P1 *)_this)->a)+1);
#ifdef VAR_RANGES
		logval("Client:a", ((int)((P1 *)_this)->a));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 63: // STATE 5 - client.pml:135 - [v = ((c*4)+a)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][5] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->v);
		((P1 *)_this)->v = ((((int)((P1 *)_this)->c)*4)+((int)((P1 *)_this)->a));
#ifdef VAR_RANGES
		logval("Client:v", ((int)((P1 *)_this)->v));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 64: // STATE 6 - client.pml:12 - [tag = (tag+1)] (0:17:6 - 1)
		IfNotBlocked
		reached[1][6] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->tag);
		((P1 *)_this)->tag = (((int)((P1 *)_this)->tag)+1);
#ifdef VAR_RANGES
		logval("Client:tag", ((int)((P1 *)_this)->tag));
#endif
		;
		/* merge: cur[c] = tag(17, 7, 17) */
		reached[1][7] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = ((int)((P1 *)_this)->tag);
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(17, 8, 17) */
		reached[1][8] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(17, 9, 17) */
		reached[1][9] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(17, 10, 17) */
		reached[1][10] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(17, 11, 17) */
		reached[1][11] = 1;
		(trpt+1)->bup.ovals[5] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 18, 17) */
		reached[1][18] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 65: // STATE 12 - client.pml:17 - [((j<=(3-1)))] (17:0:2 - 1)
		IfNotBlocked
		reached[1][12] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(17, 13, 17) */
		reached[1][13] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(17, 14, 17) */
		reached[1][14] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 18, 17) */
		reached[1][18] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 66: // STATE 20 - client.pml:20 - [j = 0] (0:55:4 - 3)
		IfNotBlocked
		reached[1][20] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: start = now(55, 22, 55) */
		reached[1][22] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->start);
		((P1 *)_this)->start = ((int)now.now);
#ifdef VAR_RANGES
		logval("Client:start", ((int)((P1 *)_this)->start));
#endif
		;
		/* merge: dl = (now+2)(55, 23, 55) */
		reached[1][23] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = (((int)now.now)+2);
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		/* merge: j = 0(55, 24, 55) */
		reached[1][24] = 1;
		(trpt+1)->bup.ovals[3] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 56, 55) */
		reached[1][56] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 67: // STATE 25 - client.pml:139 - [((j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][25] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 68: // STATE 26 - client.pml:43 - [(!(m[j].up))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][26] = 1;
		if (!( !(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 69: // STATE 27 - client.pml:45 - [(!(answered[((c*3)+j)]))] (55:0:3 - 1)
		IfNotBlocked
		reached[1][27] = 1;
		if (!( !(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		/* merge: answered[((c*3)+j)] = 1(55, 28, 55) */
		reached[1][28] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: bad[c] = (bad[c]+1)(55, 29, 55) */
		reached[1][29] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = (((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(55, 32, 55) */
		reached[1][32] = 1;
		;
		/* merge: .(goto)(55, 50, 55) */
		reached[1][50] = 1;
		;
		/* merge: j = (j+1)(55, 52, 55) */
		reached[1][52] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 56, 55) */
		reached[1][56] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 70: // STATE 33 - client.pml:48 - [(m[j].up)] (0:0:0 - 1)
		IfNotBlocked
		reached[1][33] = 1;
		if (!(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 71: // STATE 34 - client.pml:50 - [(broken[((c*3)+j)])] (39:0:1 - 1)
		IfNotBlocked
		reached[1][34] = 1;
		if (!(((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: broken[((c*3)+j)] = 0(0, 35, 39) */
		reached[1][35] = 1;
		(trpt+1)->bup.oval = ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("broken[((Client:c*3)+Client:j)]", ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 72: // STATE 36 - client.pml:53 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][36] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 73: // STATE 37 - client.pml:53 - [req[((c*3)+j)]!KILL,0,0,tag] (0:0:0 - 1)
		IfNotBlocked
		reached[1][37] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 1); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 1, 0, 0, ((int)((P1 *)_this)->tag), 4);
		_m = 2; goto P999; /* 0 */
	case 74: // STATE 38 - client.pml:54 - [(full(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][38] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		_m = 3; goto P999; /* 0 */
	case 75: // STATE 44 - client.pml:59 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][44] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 76: // STATE 45 - client.pml:59 - [req[((c*3)+j)]!4,v,5,tag] (55:0:1 - 1)
		IfNotBlocked
		reached[1][45] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 4); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->v)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 5); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 4, ((int)((P1 *)_this)->v), 5, ((int)((P1 *)_this)->tag), 4);
		/* merge: .(goto)(55, 48, 55) */
		reached[1][48] = 1;
		;
		/* merge: .(goto)(55, 50, 55) */
		reached[1][50] = 1;
		;
		/* merge: j = (j+1)(55, 52, 55) */
		reached[1][52] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 56, 55) */
		reached[1][56] = 1;
		;
		_m = 2; goto P999; /* 4 */
	case 77: // STATE 46 - client.pml:60 - [(full(req[((c*3)+j)]))] (55:0:1 - 1)
		IfNotBlocked
		reached[1][46] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: .(goto)(55, 48, 55) */
		reached[1][48] = 1;
		;
		/* merge: .(goto)(55, 50, 55) */
		reached[1][50] = 1;
		;
		/* merge: j = (j+1)(55, 52, 55) */
		reached[1][52] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 56, 55) */
		reached[1][56] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 78: // STATE 52 - client.pml:139 - [j = (j+1)] (0:55:1 - 7)
		IfNotBlocked
		reached[1][52] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 56, 55) */
		reached[1][56] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 79: // STATE 58 - client.pml:142 - [j = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[1][58] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 80: // STATE 60 - client.pml:145 - [((((((oks[c]>=((3/2)+1))||(((3-nos[c])-bad[c])<((3/2)+1)))||(now>=dl))&&(oks[c]>=((3/2)+1)))&&(((start+5)-(1+1))>now)))] (77:0:3 - 1)
		IfNotBlocked
		reached[1][60] = 1;
		if (!((((((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))||(((3-((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]))-((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]))<((3/2)+1)))||(((int)now.now)>=((int)((P1 *)_this)->dl)))&&(((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1)))&&(((((int)((P1 *)_this)->start)+5)-(1+1))>((int)now.now)))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: dl */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->dl;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->dl = 0;
		/* merge: held[c] = v(77, 61, 77) */
		reached[1][61] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.held[ Index(((P1 *)_this)->c, 2) ] = ((int)((P1 *)_this)->v);
#ifdef VAR_RANGES
		logval("held[Client:c]", ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: until[c] = ((start+5)-(1+1))(77, 62, 77) */
		reached[1][62] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.until[ Index(((P1 *)_this)->c, 2) ] = ((((int)((P1 *)_this)->start)+5)-(1+1));
#ifdef VAR_RANGES
		logval("until[Client:c]", ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 81: // STATE 63 - client.pml:26 - [cur[c] = 0] (0:73:5 - 1)
		IfNotBlocked
		reached[1][63] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(73, 64, 73) */
		reached[1][64] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(73, 65, 73) */
		reached[1][65] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(73, 66, 73) */
		reached[1][66] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(73, 67, 73) */
		reached[1][67] = 1;
		(trpt+1)->bup.ovals[4] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 74, 73) */
		reached[1][74] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 82: // STATE 68 - client.pml:30 - [((j<=(3-1)))] (73:0:2 - 1)
		IfNotBlocked
		reached[1][68] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(73, 69, 73) */
		reached[1][69] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(73, 70, 73) */
		reached[1][70] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 74, 73) */
		reached[1][74] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 83: // STATE 76 - client.pml:33 - [j = 0] (0:189:3 - 3)
		IfNotBlocked
		reached[1][76] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: start = 0(189, 78, 189) */
		reached[1][78] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->start);
		((P1 *)_this)->start = 0;
#ifdef VAR_RANGES
		logval("Client:start", ((int)((P1 *)_this)->start));
#endif
		;
		/* merge: dl = 0(189, 79, 189) */
		reached[1][79] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = 0;
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 84: // STATE 80 - redlock.pml:168 - [ck_nh = 0] (0:97:3 - 1)
		IfNotBlocked
		reached[1][80] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(97, 81, 97) */
		reached[1][81] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(97, 82, 97) */
		reached[1][82] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[1][98] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 85: // STATE 83 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][83] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 86: // STATE 84 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (89:0:1 - 1)
		IfNotBlocked
		reached[1][84] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 85, 89) */
		reached[1][85] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 87: // STATE 86 - redlock.pml:175 - [((role[ck_i]==0))] (97:0:2 - 1)
		IfNotBlocked
		reached[1][86] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(97, 87, 97) */
		reached[1][87] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(97, 90, 97) */
		reached[1][90] = 1;
		;
		/* merge: .(goto)(97, 93, 97) */
		reached[1][93] = 1;
		;
		/* merge: ck_i = (ck_i+1)(97, 94, 97) */
		reached[1][94] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[1][98] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 88: // STATE 94 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:97:1 - 5)
		IfNotBlocked
		reached[1][94] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 98, 97) */
		reached[1][98] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 89: // STATE 100 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:152:2 - 3)
		IfNotBlocked
		reached[1][100] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(152, 102, 152) */
		reached[1][102] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(152, 103, 152) */
		reached[1][103] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 153, 152) */
		reached[1][153] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 90: // STATE 104 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][104] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 91: // STATE 105 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (142:0:2 - 1)
		IfNotBlocked
		reached[1][105] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(142, 106, 142) */
		reached[1][106] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(142, 107, 142) */
		reached[1][107] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 143, 142) */
		reached[1][143] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 92: // STATE 108 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][108] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 93: // STATE 109 - redlock.pml:146 - [ck_g = 0] (0:120:2 - 1)
		IfNotBlocked
		reached[1][109] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(120, 110, 120) */
		reached[1][110] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 121, 120) */
		reached[1][121] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 94: // STATE 111 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][111] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 95: // STATE 112 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (120:0:2 - 1)
		IfNotBlocked
		reached[1][112] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(120, 113, 120) */
		reached[1][113] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(120, 116, 120) */
		reached[1][116] = 1;
		;
		/* merge: ck_s = (ck_s+1)(120, 117, 120) */
		reached[1][117] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 121, 120) */
		reached[1][121] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 96: // STATE 117 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:120:1 - 3)
		IfNotBlocked
		reached[1][117] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 121, 120) */
		reached[1][121] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 97: // STATE 123 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (131:0:1 - 1)
		IfNotBlocked
		reached[1][123] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 124, 131) */
		reached[1][124] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 127, 131) */
		reached[1][127] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 98: // STATE 128 - redlock.pml:160 - [(!(m[ck_j].up))] (137:0:1 - 1)
		IfNotBlocked
		reached[1][128] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 129, 137) */
		reached[1][129] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 132, 137) */
		reached[1][132] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 99: // STATE 134 - redlock.pml:205 - [(ck_g)] (142:0:2 - 1)
		IfNotBlocked
		reached[1][134] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(142, 135, 142) */
		reached[1][135] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(142, 138, 142) */
		reached[1][138] = 1;
		;
		/* merge: ck_j = (ck_j+1)(142, 139, 142) */
		reached[1][139] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 143, 142) */
		reached[1][143] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 100: // STATE 139 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:142:1 - 3)
		IfNotBlocked
		reached[1][139] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 143, 142) */
		reached[1][143] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 101: // STATE 145 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:152:1 - 3)
		IfNotBlocked
		reached[1][145] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(152, 148, 152) */
		reached[1][148] = 1;
		;
		/* merge: ck_i = (ck_i+1)(152, 149, 152) */
		reached[1][149] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 153, 152) */
		reached[1][153] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 102: // STATE 149 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:152:1 - 3)
		IfNotBlocked
		reached[1][149] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 153, 152) */
		reached[1][153] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 103: // STATE 155 - redlock.pml:213 - [ck_j = 0] (0:169:1 - 3)
		IfNotBlocked
		reached[1][155] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 170, 169) */
		reached[1][170] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 104: // STATE 156 - redlock.pml:213 - [((ck_j<=(3-1)))] (163:0:1 - 1)
		IfNotBlocked
		reached[1][156] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 157, 163) */
		reached[1][157] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 164, 163) */
		reached[1][164] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 105: // STATE 158 - redlock.pml:214 - [((ck_s<=(1-1)))] (163:0:1 - 1)
		IfNotBlocked
		reached[1][158] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(163, 159, 163) */
		reached[1][159] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(163, 160, 163) */
		reached[1][160] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 164, 163) */
		reached[1][164] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 106: // STATE 166 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:169:1 - 3)
		IfNotBlocked
		reached[1][166] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 170, 169) */
		reached[1][170] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 107: // STATE 172 - redlock.pml:218 - [ck_j = 0] (0:178:1 - 3)
		IfNotBlocked
		reached[1][172] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 179, 178) */
		reached[1][179] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 108: // STATE 173 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (178:0:1 - 1)
		IfNotBlocked
		reached[1][173] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(178, 174, 178) */
		reached[1][174] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(178, 175, 178) */
		reached[1][175] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 179, 178) */
		reached[1][179] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 109: // STATE 181 - redlock.pml:221 - [ck_q = 0] (0:639:8 - 3)
		IfNotBlocked
		reached[1][181] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(639, 182, 639) */
		reached[1][182] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(639, 183, 639) */
		reached[1][183] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(639, 184, 639) */
		reached[1][184] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(639, 185, 639) */
		reached[1][185] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(639, 186, 639) */
		reached[1][186] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(639, 187, 639) */
		reached[1][187] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(639, 188, 639) */
		reached[1][188] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: goto :b51(0, 191, 639) */
		reached[1][191] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 110: // STATE 192 - client.pml:154 - [(((((oks[c]>=((3/2)+1))||(((3-nos[c])-bad[c])<((3/2)+1)))||(now>=dl))&&!(((oks[c]>=((3/2)+1))&&(((start+5)-(1+1))>now)))))] (0:0:2 - 1)
		IfNotBlocked
		reached[1][192] = 1;
		if (!(((((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))||(((3-((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]))-((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]))<((3/2)+1)))||(((int)now.now)>=((int)((P1 *)_this)->dl)))&& !(((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))&&(((((int)((P1 *)_this)->start)+5)-(1+1))>((int)now.now)))))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: dl */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->dl;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->dl = 0;
		if (TstOnly) return 1; /* TT */
		/* dead 1: start */  (trpt+1)->bup.ovals[1] = ((P1 *)_this)->start;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->start = 0;
		_m = 3; goto P999; /* 0 */
	case 111: // STATE 193 - client.pml:26 - [cur[c] = 0] (0:203:5 - 1)
		IfNotBlocked
		reached[1][193] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(203, 194, 203) */
		reached[1][194] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(203, 195, 203) */
		reached[1][195] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(203, 196, 203) */
		reached[1][196] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(203, 197, 203) */
		reached[1][197] = 1;
		(trpt+1)->bup.ovals[4] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 204, 203) */
		reached[1][204] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 112: // STATE 198 - client.pml:30 - [((j<=(3-1)))] (203:0:2 - 1)
		IfNotBlocked
		reached[1][198] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(203, 199, 203) */
		reached[1][199] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(203, 200, 203) */
		reached[1][200] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 204, 203) */
		reached[1][204] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 113: // STATE 206 - client.pml:33 - [j = 0] (0:426:3 - 3)
		IfNotBlocked
		reached[1][206] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: start = 0(426, 208, 426) */
		reached[1][208] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->start);
		((P1 *)_this)->start = 0;
#ifdef VAR_RANGES
		logval("Client:start", ((int)((P1 *)_this)->start));
#endif
		;
		/* merge: dl = 0(426, 209, 426) */
		reached[1][209] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = 0;
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 114: // STATE 211 - client.pml:83 - [done = 0] (0:305:2 - 1)
		IfNotBlocked
		reached[1][211] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->done);
		((P1 *)_this)->done = 0;
#ifdef VAR_RANGES
		logval("Client:done", ((int)((P1 *)_this)->done));
#endif
		;
		/* merge: rounds = 0(305, 212, 305) */
		reached[1][212] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->rounds);
		((P1 *)_this)->rounds = 0;
#ifdef VAR_RANGES
		logval("Client:rounds", ((int)((P1 *)_this)->rounds));
#endif
		;
		/* merge: .(goto)(0, 306, 305) */
		reached[1][306] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 115: // STATE 213 - client.pml:86 - [(((rounds==2)||(done==((1<<3)-1))))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][213] = 1;
		if (!(((((int)((P1 *)_this)->rounds)==2)||(((int)((P1 *)_this)->done)==((1<<3)-1)))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: rounds */  (trpt+1)->bup.oval = ((P1 *)_this)->rounds;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->rounds = 0;
		_m = 3; goto P999; /* 0 */
	case 116: // STATE 216 - client.pml:88 - [rounds = (rounds+1)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][216] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->rounds);
		((P1 *)_this)->rounds = (((int)((P1 *)_this)->rounds)+1);
#ifdef VAR_RANGES
		logval("Client:rounds", ((int)((P1 *)_this)->rounds));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 117: // STATE 217 - client.pml:12 - [tag = (tag+1)] (0:228:6 - 1)
		IfNotBlocked
		reached[1][217] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->tag);
		((P1 *)_this)->tag = (((int)((P1 *)_this)->tag)+1);
#ifdef VAR_RANGES
		logval("Client:tag", ((int)((P1 *)_this)->tag));
#endif
		;
		/* merge: cur[c] = tag(228, 218, 228) */
		reached[1][218] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = ((int)((P1 *)_this)->tag);
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(228, 219, 228) */
		reached[1][219] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(228, 220, 228) */
		reached[1][220] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(228, 221, 228) */
		reached[1][221] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(228, 222, 228) */
		reached[1][222] = 1;
		(trpt+1)->bup.ovals[5] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 229, 228) */
		reached[1][229] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 118: // STATE 223 - client.pml:17 - [((j<=(3-1)))] (228:0:2 - 1)
		IfNotBlocked
		reached[1][223] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(228, 224, 228) */
		reached[1][224] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(228, 225, 228) */
		reached[1][225] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 229, 228) */
		reached[1][229] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 119: // STATE 231 - client.pml:20 - [j = 0] (0:269:3 - 3)
		IfNotBlocked
		reached[1][231] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: dl = (now+2)(269, 233, 269) */
		reached[1][233] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = (((int)now.now)+2);
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		/* merge: j = 0(269, 234, 269) */
		reached[1][234] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 270, 269) */
		reached[1][270] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 120: // STATE 235 - client.pml:92 - [((j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][235] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 121: // STATE 236 - client.pml:94 - [(((done&(1<<j))==0))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][236] = 1;
		if (!(((((int)((P1 *)_this)->done)&(1<<((int)((P1 *)_this)->j)))==0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 122: // STATE 237 - client.pml:43 - [(!(m[j].up))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][237] = 1;
		if (!( !(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 123: // STATE 238 - client.pml:45 - [(!(answered[((c*3)+j)]))] (269:0:3 - 1)
		IfNotBlocked
		reached[1][238] = 1;
		if (!( !(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		/* merge: answered[((c*3)+j)] = 1(269, 239, 269) */
		reached[1][239] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: bad[c] = (bad[c]+1)(269, 240, 269) */
		reached[1][240] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = (((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(269, 243, 269) */
		reached[1][243] = 1;
		;
		/* merge: .(goto)(269, 261, 269) */
		reached[1][261] = 1;
		;
		/* merge: .(goto)(269, 265, 269) */
		reached[1][265] = 1;
		;
		/* merge: j = (j+1)(269, 266, 269) */
		reached[1][266] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 270, 269) */
		reached[1][270] = 1;
		;
		_m = 3; goto P999; /* 7 */
	case 124: // STATE 244 - client.pml:48 - [(m[j].up)] (0:0:0 - 1)
		IfNotBlocked
		reached[1][244] = 1;
		if (!(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 125: // STATE 245 - client.pml:50 - [(broken[((c*3)+j)])] (250:0:1 - 1)
		IfNotBlocked
		reached[1][245] = 1;
		if (!(((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: broken[((c*3)+j)] = 0(0, 246, 250) */
		reached[1][246] = 1;
		(trpt+1)->bup.oval = ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("broken[((Client:c*3)+Client:j)]", ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 126: // STATE 247 - client.pml:53 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][247] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 127: // STATE 248 - client.pml:53 - [req[((c*3)+j)]!KILL,0,0,tag] (0:0:0 - 1)
		IfNotBlocked
		reached[1][248] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 1); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 1, 0, 0, ((int)((P1 *)_this)->tag), 4);
		_m = 2; goto P999; /* 0 */
	case 128: // STATE 249 - client.pml:54 - [(full(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][249] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		_m = 3; goto P999; /* 0 */
	case 129: // STATE 255 - client.pml:59 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][255] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 130: // STATE 256 - client.pml:59 - [req[((c*3)+j)]!2,v,0,tag] (269:0:1 - 1)
		IfNotBlocked
		reached[1][256] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 2); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->v)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 2, ((int)((P1 *)_this)->v), 0, ((int)((P1 *)_this)->tag), 4);
		/* merge: .(goto)(269, 259, 269) */
		reached[1][259] = 1;
		;
		/* merge: .(goto)(269, 261, 269) */
		reached[1][261] = 1;
		;
		/* merge: .(goto)(269, 265, 269) */
		reached[1][265] = 1;
		;
		/* merge: j = (j+1)(269, 266, 269) */
		reached[1][266] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 270, 269) */
		reached[1][270] = 1;
		;
		_m = 2; goto P999; /* 5 */
	case 131: // STATE 257 - client.pml:60 - [(full(req[((c*3)+j)]))] (269:0:1 - 1)
		IfNotBlocked
		reached[1][257] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: .(goto)(269, 259, 269) */
		reached[1][259] = 1;
		;
		/* merge: .(goto)(269, 261, 269) */
		reached[1][261] = 1;
		;
		/* merge: .(goto)(269, 265, 269) */
		reached[1][265] = 1;
		;
		/* merge: j = (j+1)(269, 266, 269) */
		reached[1][266] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 270, 269) */
		reached[1][270] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 132: // STATE 266 - client.pml:92 - [j = (j+1)] (0:269:1 - 9)
		IfNotBlocked
		reached[1][266] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 270, 269) */
		reached[1][270] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 133: // STATE 272 - client.pml:98 - [j = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[1][272] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 134: // STATE 274 - client.pml:101 - [(((now>=dl)||(((answered[((c*3)+0)]||((done&(1<<0))!=0))&&(answered[((c*3)+1)]||((done&(1<<1))!=0)))&&(answered[((c*3)+2)]||((done&(1<<2))!=0)))))] (285:0:2 - 1)
		IfNotBlocked
		reached[1][274] = 1;
		if (!(((((int)now.now)>=((int)((P1 *)_this)->dl))||(((((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+0), 6) ])||((((int)((P1 *)_this)->done)&(1<<0))!=0))&&(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+1), 6) ])||((((int)((P1 *)_this)->done)&(1<<1))!=0)))&&(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+2), 6) ])||((((int)((P1 *)_this)->done)&(1<<2))!=0))))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: dl */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->dl;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->dl = 0;
		/* merge: j = 0(0, 275, 285) */
		reached[1][275] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 286, 285) */
		reached[1][286] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 135: // STATE 276 - client.pml:102 - [((j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][276] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 136: // STATE 277 - client.pml:104 - [((answered[((c*3)+j)]&&m[j].up))] (285:0:2 - 1)
		IfNotBlocked
		reached[1][277] = 1;
		if (!((((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])&&((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up))))
			continue;
		/* merge: done = (done|(1<<j))(285, 278, 285) */
		reached[1][278] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->done);
		((P1 *)_this)->done = (((int)((P1 *)_this)->done)|(1<<((int)((P1 *)_this)->j)));
#ifdef VAR_RANGES
		logval("Client:done", ((int)((P1 *)_this)->done));
#endif
		;
		/* merge: .(goto)(285, 281, 285) */
		reached[1][281] = 1;
		;
		/* merge: j = (j+1)(285, 282, 285) */
		reached[1][282] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 286, 285) */
		reached[1][286] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 137: // STATE 282 - client.pml:102 - [j = (j+1)] (0:285:1 - 3)
		IfNotBlocked
		reached[1][282] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 286, 285) */
		reached[1][286] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 138: // STATE 288 - client.pml:26 - [cur[c] = 0] (0:298:5 - 1)
		IfNotBlocked
		reached[1][288] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(298, 289, 298) */
		reached[1][289] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(298, 290, 298) */
		reached[1][290] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(298, 291, 298) */
		reached[1][291] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(298, 292, 298) */
		reached[1][292] = 1;
		(trpt+1)->bup.ovals[4] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 299, 298) */
		reached[1][299] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 139: // STATE 293 - client.pml:30 - [((j<=(3-1)))] (298:0:2 - 1)
		IfNotBlocked
		reached[1][293] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(298, 294, 298) */
		reached[1][294] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(298, 295, 298) */
		reached[1][295] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 299, 298) */
		reached[1][299] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 140: // STATE 301 - client.pml:33 - [j = 0] (0:305:2 - 3)
		IfNotBlocked
		reached[1][301] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: dl = 0(305, 303, 305) */
		reached[1][303] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = 0;
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		/* merge: .(goto)(0, 306, 305) */
		reached[1][306] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 141: // STATE 308 - client.pml:114 - [((done==((1<<3)-1)))] (419:0:2 - 1)
		IfNotBlocked
		reached[1][308] = 1;
		if (!((((int)((P1 *)_this)->done)==((1<<3)-1))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: done */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->done;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->done = 0;
		/* merge: dead[v] = 1(0, 309, 419) */
		reached[1][309] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.dead[ Index(((int)((P1 *)_this)->v), 8) ]);
		now.dead[ Index(((P1 *)_this)->v, 8) ] = 1;
#ifdef VAR_RANGES
		logval("dead[Client:v]", ((int)now.dead[ Index(((int)((P1 *)_this)->v), 8) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 142: // STATE 310 - redlock.pml:168 - [ck_nh = 0] (0:327:3 - 1)
		IfNotBlocked
		reached[1][310] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(327, 311, 327) */
		reached[1][311] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(327, 312, 327) */
		reached[1][312] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 328, 327) */
		reached[1][328] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 143: // STATE 313 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][313] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 144: // STATE 314 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (319:0:1 - 1)
		IfNotBlocked
		reached[1][314] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 315, 319) */
		reached[1][315] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 145: // STATE 316 - redlock.pml:175 - [((role[ck_i]==0))] (327:0:2 - 1)
		IfNotBlocked
		reached[1][316] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(327, 317, 327) */
		reached[1][317] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(327, 320, 327) */
		reached[1][320] = 1;
		;
		/* merge: .(goto)(327, 323, 327) */
		reached[1][323] = 1;
		;
		/* merge: ck_i = (ck_i+1)(327, 324, 327) */
		reached[1][324] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 328, 327) */
		reached[1][328] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 146: // STATE 324 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:327:1 - 5)
		IfNotBlocked
		reached[1][324] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 328, 327) */
		reached[1][328] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 147: // STATE 330 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:382:2 - 3)
		IfNotBlocked
		reached[1][330] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(382, 332, 382) */
		reached[1][332] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(382, 333, 382) */
		reached[1][333] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 383, 382) */
		reached[1][383] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 148: // STATE 334 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][334] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 149: // STATE 335 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (372:0:2 - 1)
		IfNotBlocked
		reached[1][335] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(372, 336, 372) */
		reached[1][336] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(372, 337, 372) */
		reached[1][337] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 373, 372) */
		reached[1][373] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 150: // STATE 338 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][338] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 151: // STATE 339 - redlock.pml:146 - [ck_g = 0] (0:350:2 - 1)
		IfNotBlocked
		reached[1][339] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(350, 340, 350) */
		reached[1][340] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 351, 350) */
		reached[1][351] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 152: // STATE 341 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][341] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 153: // STATE 342 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (350:0:2 - 1)
		IfNotBlocked
		reached[1][342] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(350, 343, 350) */
		reached[1][343] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(350, 346, 350) */
		reached[1][346] = 1;
		;
		/* merge: ck_s = (ck_s+1)(350, 347, 350) */
		reached[1][347] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 351, 350) */
		reached[1][351] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 154: // STATE 347 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:350:1 - 3)
		IfNotBlocked
		reached[1][347] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 351, 350) */
		reached[1][351] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 155: // STATE 353 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (361:0:1 - 1)
		IfNotBlocked
		reached[1][353] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 354, 361) */
		reached[1][354] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 357, 361) */
		reached[1][357] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 156: // STATE 358 - redlock.pml:160 - [(!(m[ck_j].up))] (367:0:1 - 1)
		IfNotBlocked
		reached[1][358] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 359, 367) */
		reached[1][359] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 362, 367) */
		reached[1][362] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 157: // STATE 364 - redlock.pml:205 - [(ck_g)] (372:0:2 - 1)
		IfNotBlocked
		reached[1][364] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(372, 365, 372) */
		reached[1][365] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(372, 368, 372) */
		reached[1][368] = 1;
		;
		/* merge: ck_j = (ck_j+1)(372, 369, 372) */
		reached[1][369] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 373, 372) */
		reached[1][373] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 158: // STATE 369 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:372:1 - 3)
		IfNotBlocked
		reached[1][369] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 373, 372) */
		reached[1][373] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 159: // STATE 375 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:382:1 - 3)
		IfNotBlocked
		reached[1][375] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(382, 378, 382) */
		reached[1][378] = 1;
		;
		/* merge: ck_i = (ck_i+1)(382, 379, 382) */
		reached[1][379] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 383, 382) */
		reached[1][383] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 160: // STATE 379 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:382:1 - 3)
		IfNotBlocked
		reached[1][379] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 383, 382) */
		reached[1][383] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 161: // STATE 385 - redlock.pml:213 - [ck_j = 0] (0:399:1 - 3)
		IfNotBlocked
		reached[1][385] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 400, 399) */
		reached[1][400] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 162: // STATE 386 - redlock.pml:213 - [((ck_j<=(3-1)))] (393:0:1 - 1)
		IfNotBlocked
		reached[1][386] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 387, 393) */
		reached[1][387] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 394, 393) */
		reached[1][394] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 163: // STATE 388 - redlock.pml:214 - [((ck_s<=(1-1)))] (393:0:1 - 1)
		IfNotBlocked
		reached[1][388] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(393, 389, 393) */
		reached[1][389] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(393, 390, 393) */
		reached[1][390] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 394, 393) */
		reached[1][394] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 164: // STATE 396 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:399:1 - 3)
		IfNotBlocked
		reached[1][396] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 400, 399) */
		reached[1][400] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 165: // STATE 402 - redlock.pml:218 - [ck_j = 0] (0:408:1 - 3)
		IfNotBlocked
		reached[1][402] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 409, 408) */
		reached[1][409] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 166: // STATE 403 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (408:0:1 - 1)
		IfNotBlocked
		reached[1][403] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(408, 404, 408) */
		reached[1][404] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(408, 405, 408) */
		reached[1][405] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 409, 408) */
		reached[1][409] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 167: // STATE 411 - redlock.pml:221 - [ck_q = 0] (0:429:10 - 3)
		IfNotBlocked
		reached[1][411] = 1;
		(trpt+1)->bup.ovals = grab_ints(10);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(429, 412, 429) */
		reached[1][412] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(429, 413, 429) */
		reached[1][413] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(429, 414, 429) */
		reached[1][414] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(429, 415, 429) */
		reached[1][415] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(429, 416, 429) */
		reached[1][416] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(429, 417, 429) */
		reached[1][417] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(429, 418, 429) */
		reached[1][418] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(429, 422, 429) */
		reached[1][422] = 1;
		;
		/* merge: done = 0(429, 423, 429) */
		reached[1][423] = 1;
		(trpt+1)->bup.ovals[8] = ((int)((P1 *)_this)->done);
		((P1 *)_this)->done = 0;
#ifdef VAR_RANGES
		logval("Client:done", ((int)((P1 *)_this)->done));
#endif
		;
		/* merge: rounds = 0(429, 424, 429) */
		reached[1][424] = 1;
		(trpt+1)->bup.ovals[9] = ((int)((P1 *)_this)->rounds);
		((P1 *)_this)->rounds = 0;
#ifdef VAR_RANGES
		logval("Client:rounds", ((int)((P1 *)_this)->rounds));
#endif
		;
		/* merge: .(goto)(0, 428, 429) */
		reached[1][428] = 1;
		;
		/* merge: .(goto)(0, 430, 429) */
		reached[1][430] = 1;
		;
		_m = 3; goto P999; /* 12 */
	case 168: // STATE 423 - client.pml:117 - [done = 0] (0:429:2 - 3)
		IfNotBlocked
		reached[1][423] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->done);
		((P1 *)_this)->done = 0;
#ifdef VAR_RANGES
		logval("Client:done", ((int)((P1 *)_this)->done));
#endif
		;
		/* merge: rounds = 0(429, 424, 429) */
		reached[1][424] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->rounds);
		((P1 *)_this)->rounds = 0;
#ifdef VAR_RANGES
		logval("Client:rounds", ((int)((P1 *)_this)->rounds));
#endif
		;
		/* merge: .(goto)(0, 428, 429) */
		reached[1][428] = 1;
		;
		/* merge: .(goto)(0, 430, 429) */
		reached[1][430] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 169: // STATE 432 - client.pml:166 - [((now<until[c]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][432] = 1;
		if (!((((int)now.now)<((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 170: // STATE 433 - client.pml:168 - [t2 = 5] (0:0:1 - 1)
		IfNotBlocked
		reached[1][433] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->t2);
		((P1 *)_this)->t2 = 5;
#ifdef VAR_RANGES
		logval("Client:t2", ((int)((P1 *)_this)->t2));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 171: // STATE 434 - client.pml:169 - [t2 = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[1][434] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->t2);
		((P1 *)_this)->t2 = 2;
#ifdef VAR_RANGES
		logval("Client:t2", ((int)((P1 *)_this)->t2));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 172: // STATE 437 - client.pml:12 - [tag = (tag+1)] (0:448:6 - 1)
		IfNotBlocked
		reached[1][437] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->tag);
		((P1 *)_this)->tag = (((int)((P1 *)_this)->tag)+1);
#ifdef VAR_RANGES
		logval("Client:tag", ((int)((P1 *)_this)->tag));
#endif
		;
		/* merge: cur[c] = tag(448, 438, 448) */
		reached[1][438] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = ((int)((P1 *)_this)->tag);
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(448, 439, 448) */
		reached[1][439] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(448, 440, 448) */
		reached[1][440] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(448, 441, 448) */
		reached[1][441] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(448, 442, 448) */
		reached[1][442] = 1;
		(trpt+1)->bup.ovals[5] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 449, 448) */
		reached[1][449] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 173: // STATE 443 - client.pml:17 - [((j<=(3-1)))] (448:0:2 - 1)
		IfNotBlocked
		reached[1][443] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(448, 444, 448) */
		reached[1][444] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(448, 445, 448) */
		reached[1][445] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 449, 448) */
		reached[1][449] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 174: // STATE 451 - client.pml:20 - [j = 0] (0:458:3 - 3)
		IfNotBlocked
		reached[1][451] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: start = now(458, 453, 458) */
		reached[1][453] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->start);
		((P1 *)_this)->start = ((int)now.now);
#ifdef VAR_RANGES
		logval("Client:start", ((int)((P1 *)_this)->start));
#endif
		;
		/* merge: dl = (now+2)(458, 454, 458) */
		reached[1][454] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = (((int)now.now)+2);
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 175: // STATE 455 - client.pml:177 - [((((start+t2)-(1+1))<until[c]))] (491:0:2 - 1)
		IfNotBlocked
		reached[1][455] = 1;
		if (!((((((int)((P1 *)_this)->start)+((int)((P1 *)_this)->t2))-(1+1))<((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]))))
			continue;
		/* merge: until[c] = ((start+t2)-(1+1))(491, 456, 491) */
		reached[1][456] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.until[ Index(((P1 *)_this)->c, 2) ] = ((((int)((P1 *)_this)->start)+((int)((P1 *)_this)->t2))-(1+1));
#ifdef VAR_RANGES
		logval("until[Client:c]", ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(491, 459, 491) */
		reached[1][459] = 1;
		;
		/* merge: j = 0(491, 460, 491) */
		reached[1][460] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 176: // STATE 460 - client.pml:181 - [j = 0] (0:491:1 - 3)
		IfNotBlocked
		reached[1][460] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 177: // STATE 461 - client.pml:181 - [((j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][461] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 178: // STATE 462 - client.pml:43 - [(!(m[j].up))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][462] = 1;
		if (!( !(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 179: // STATE 463 - client.pml:45 - [(!(answered[((c*3)+j)]))] (491:0:3 - 1)
		IfNotBlocked
		reached[1][463] = 1;
		if (!( !(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		/* merge: answered[((c*3)+j)] = 1(491, 464, 491) */
		reached[1][464] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: bad[c] = (bad[c]+1)(491, 465, 491) */
		reached[1][465] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = (((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(491, 468, 491) */
		reached[1][468] = 1;
		;
		/* merge: .(goto)(491, 486, 491) */
		reached[1][486] = 1;
		;
		/* merge: j = (j+1)(491, 488, 491) */
		reached[1][488] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 180: // STATE 469 - client.pml:48 - [(m[j].up)] (0:0:0 - 1)
		IfNotBlocked
		reached[1][469] = 1;
		if (!(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 181: // STATE 470 - client.pml:50 - [(broken[((c*3)+j)])] (475:0:1 - 1)
		IfNotBlocked
		reached[1][470] = 1;
		if (!(((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: broken[((c*3)+j)] = 0(0, 471, 475) */
		reached[1][471] = 1;
		(trpt+1)->bup.oval = ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("broken[((Client:c*3)+Client:j)]", ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 182: // STATE 472 - client.pml:53 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][472] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 183: // STATE 473 - client.pml:53 - [req[((c*3)+j)]!KILL,0,0,tag] (0:0:0 - 1)
		IfNotBlocked
		reached[1][473] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 1); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 1, 0, 0, ((int)((P1 *)_this)->tag), 4);
		_m = 2; goto P999; /* 0 */
	case 184: // STATE 474 - client.pml:54 - [(full(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][474] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		_m = 3; goto P999; /* 0 */
	case 185: // STATE 480 - client.pml:59 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][480] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 186: // STATE 481 - client.pml:59 - [req[((c*3)+j)]!3,v,(t2|128),tag] (491:0:1 - 1)
		IfNotBlocked
		reached[1][481] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 3); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->v)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", (((int)((P1 *)_this)->t2)|128)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 3, ((int)((P1 *)_this)->v), (((int)((P1 *)_this)->t2)|128), ((int)((P1 *)_this)->tag), 4);
		/* merge: .(goto)(491, 484, 491) */
		reached[1][484] = 1;
		;
		/* merge: .(goto)(491, 486, 491) */
		reached[1][486] = 1;
		;
		/* merge: j = (j+1)(491, 488, 491) */
		reached[1][488] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 2; goto P999; /* 4 */
	case 187: // STATE 482 - client.pml:60 - [(full(req[((c*3)+j)]))] (491:0:1 - 1)
		IfNotBlocked
		reached[1][482] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: .(goto)(491, 484, 491) */
		reached[1][484] = 1;
		;
		/* merge: .(goto)(491, 486, 491) */
		reached[1][486] = 1;
		;
		/* merge: j = (j+1)(491, 488, 491) */
		reached[1][488] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 188: // STATE 488 - client.pml:181 - [j = (j+1)] (0:491:1 - 7)
		IfNotBlocked
		reached[1][488] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 492, 491) */
		reached[1][492] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 189: // STATE 494 - client.pml:184 - [j = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[1][494] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 190: // STATE 496 - client.pml:186 - [((((((oks[c]>=((3/2)+1))||(((3-nos[c])-bad[c])<((3/2)+1)))||(now>=dl))&&(oks[c]>=((3/2)+1)))&&(((start+t2)-(1+1))>now)))] (607:0:2 - 1)
		IfNotBlocked
		reached[1][496] = 1;
		if (!((((((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))||(((3-((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]))-((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]))<((3/2)+1)))||(((int)now.now)>=((int)((P1 *)_this)->dl)))&&(((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1)))&&(((((int)((P1 *)_this)->start)+((int)((P1 *)_this)->t2))-(1+1))>((int)now.now)))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: dl */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->dl;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->dl = 0;
		/* merge: until[c] = ((start+t2)-(1+1))(0, 497, 607) */
		reached[1][497] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.until[ Index(((P1 *)_this)->c, 2) ] = ((((int)((P1 *)_this)->start)+((int)((P1 *)_this)->t2))-(1+1));
#ifdef VAR_RANGES
		logval("until[Client:c]", ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 191: // STATE 498 - redlock.pml:168 - [ck_nh = 0] (0:515:3 - 1)
		IfNotBlocked
		reached[1][498] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(515, 499, 515) */
		reached[1][499] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(515, 500, 515) */
		reached[1][500] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 516, 515) */
		reached[1][516] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 192: // STATE 501 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][501] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 193: // STATE 502 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (507:0:1 - 1)
		IfNotBlocked
		reached[1][502] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 503, 507) */
		reached[1][503] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 194: // STATE 504 - redlock.pml:175 - [((role[ck_i]==0))] (515:0:2 - 1)
		IfNotBlocked
		reached[1][504] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(515, 505, 515) */
		reached[1][505] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(515, 508, 515) */
		reached[1][508] = 1;
		;
		/* merge: .(goto)(515, 511, 515) */
		reached[1][511] = 1;
		;
		/* merge: ck_i = (ck_i+1)(515, 512, 515) */
		reached[1][512] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 516, 515) */
		reached[1][516] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 195: // STATE 512 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:515:1 - 5)
		IfNotBlocked
		reached[1][512] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 516, 515) */
		reached[1][516] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 196: // STATE 518 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:570:2 - 3)
		IfNotBlocked
		reached[1][518] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(570, 520, 570) */
		reached[1][520] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(570, 521, 570) */
		reached[1][521] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 571, 570) */
		reached[1][571] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 197: // STATE 522 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][522] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 198: // STATE 523 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (560:0:2 - 1)
		IfNotBlocked
		reached[1][523] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(560, 524, 560) */
		reached[1][524] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(560, 525, 560) */
		reached[1][525] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 561, 560) */
		reached[1][561] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 199: // STATE 526 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][526] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 200: // STATE 527 - redlock.pml:146 - [ck_g = 0] (0:538:2 - 1)
		IfNotBlocked
		reached[1][527] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(538, 528, 538) */
		reached[1][528] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 539, 538) */
		reached[1][539] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 201: // STATE 529 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][529] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 202: // STATE 530 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (538:0:2 - 1)
		IfNotBlocked
		reached[1][530] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(538, 531, 538) */
		reached[1][531] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(538, 534, 538) */
		reached[1][534] = 1;
		;
		/* merge: ck_s = (ck_s+1)(538, 535, 538) */
		reached[1][535] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 539, 538) */
		reached[1][539] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 203: // STATE 535 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:538:1 - 3)
		IfNotBlocked
		reached[1][535] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 539, 538) */
		reached[1][539] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 204: // STATE 541 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (549:0:1 - 1)
		IfNotBlocked
		reached[1][541] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 542, 549) */
		reached[1][542] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 545, 549) */
		reached[1][545] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 205: // STATE 546 - redlock.pml:160 - [(!(m[ck_j].up))] (555:0:1 - 1)
		IfNotBlocked
		reached[1][546] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 547, 555) */
		reached[1][547] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 550, 555) */
		reached[1][550] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 206: // STATE 552 - redlock.pml:205 - [(ck_g)] (560:0:2 - 1)
		IfNotBlocked
		reached[1][552] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(560, 553, 560) */
		reached[1][553] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(560, 556, 560) */
		reached[1][556] = 1;
		;
		/* merge: ck_j = (ck_j+1)(560, 557, 560) */
		reached[1][557] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 561, 560) */
		reached[1][561] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 207: // STATE 557 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:560:1 - 3)
		IfNotBlocked
		reached[1][557] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 561, 560) */
		reached[1][561] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 208: // STATE 563 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:570:1 - 3)
		IfNotBlocked
		reached[1][563] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(570, 566, 570) */
		reached[1][566] = 1;
		;
		/* merge: ck_i = (ck_i+1)(570, 567, 570) */
		reached[1][567] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 571, 570) */
		reached[1][571] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 209: // STATE 567 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:570:1 - 3)
		IfNotBlocked
		reached[1][567] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 571, 570) */
		reached[1][571] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 210: // STATE 573 - redlock.pml:213 - [ck_j = 0] (0:587:1 - 3)
		IfNotBlocked
		reached[1][573] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 588, 587) */
		reached[1][588] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 211: // STATE 574 - redlock.pml:213 - [((ck_j<=(3-1)))] (581:0:1 - 1)
		IfNotBlocked
		reached[1][574] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 575, 581) */
		reached[1][575] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 582, 581) */
		reached[1][582] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 212: // STATE 576 - redlock.pml:214 - [((ck_s<=(1-1)))] (581:0:1 - 1)
		IfNotBlocked
		reached[1][576] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(581, 577, 581) */
		reached[1][577] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(581, 578, 581) */
		reached[1][578] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 582, 581) */
		reached[1][582] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 213: // STATE 584 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:587:1 - 3)
		IfNotBlocked
		reached[1][584] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 588, 587) */
		reached[1][588] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 214: // STATE 590 - redlock.pml:218 - [ck_j = 0] (0:596:1 - 3)
		IfNotBlocked
		reached[1][590] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 597, 596) */
		reached[1][597] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 215: // STATE 591 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (596:0:1 - 1)
		IfNotBlocked
		reached[1][591] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(596, 592, 596) */
		reached[1][592] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(596, 593, 596) */
		reached[1][593] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 597, 596) */
		reached[1][597] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 216: // STATE 599 - redlock.pml:221 - [ck_q = 0] (0:637:8 - 3)
		IfNotBlocked
		reached[1][599] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(637, 600, 637) */
		reached[1][600] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(637, 601, 637) */
		reached[1][601] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(637, 602, 637) */
		reached[1][602] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(637, 603, 637) */
		reached[1][603] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(637, 604, 637) */
		reached[1][604] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(637, 605, 637) */
		reached[1][605] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(637, 606, 637) */
		reached[1][606] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 618, 637) */
		reached[1][618] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 217: // STATE 609 - client.pml:189 - [(((((oks[c]>=((3/2)+1))||(((3-nos[c])-bad[c])<((3/2)+1)))||(now>=dl))&&!(((oks[c]>=((3/2)+1))&&(((start+t2)-(1+1))>now)))))] (0:0:3 - 1)
		IfNotBlocked
		reached[1][609] = 1;
		if (!(((((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))||(((3-((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]))-((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]))<((3/2)+1)))||(((int)now.now)>=((int)((P1 *)_this)->dl)))&& !(((((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ])>=((3/2)+1))&&(((((int)((P1 *)_this)->start)+((int)((P1 *)_this)->t2))-(1+1))>((int)now.now)))))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: dl */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->dl;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->dl = 0;
		if (TstOnly) return 1; /* TT */
		/* dead 1: start */  (trpt+1)->bup.ovals[1] = ((P1 *)_this)->start;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->start = 0;
		if (TstOnly) return 1; /* TT */
		/* dead 1: t2 */  (trpt+1)->bup.ovals[2] = ((P1 *)_this)->t2;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->t2 = 0;
		_m = 3; goto P999; /* 0 */
	case 218: // STATE 610 - client.pml:191 - [((nos[c]>(3-((3/2)+1))))] (637:0:2 - 1)
		IfNotBlocked
		reached[1][610] = 1;
		if (!((((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ])>(3-((3/2)+1)))))
			continue;
		/* merge: until[c] = 0(637, 611, 637) */
		reached[1][611] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.until[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("until[Client:c]", ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: held[c] = 0(637, 612, 637) */
		reached[1][612] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.held[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("held[Client:c]", ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(637, 615, 637) */
		reached[1][615] = 1;
		;
		/* merge: .(goto)(0, 618, 637) */
		reached[1][618] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 219: // STATE 615 - client.pml:193 - [.(goto)] (0:637:0 - 2)
		IfNotBlocked
		reached[1][615] = 1;
		;
		/* merge: .(goto)(0, 618, 637) */
		reached[1][618] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 220: // STATE 619 - client.pml:26 - [cur[c] = 0] (0:629:5 - 1)
		IfNotBlocked
		reached[1][619] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(629, 620, 629) */
		reached[1][620] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(629, 621, 629) */
		reached[1][621] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(629, 622, 629) */
		reached[1][622] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(629, 623, 629) */
		reached[1][623] = 1;
		(trpt+1)->bup.ovals[4] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 630, 629) */
		reached[1][630] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 221: // STATE 624 - client.pml:30 - [((j<=(3-1)))] (629:0:2 - 1)
		IfNotBlocked
		reached[1][624] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(629, 625, 629) */
		reached[1][625] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(629, 626, 629) */
		reached[1][626] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 630, 629) */
		reached[1][630] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 222: // STATE 632 - client.pml:33 - [j = 0] (0:712:4 - 3)
		IfNotBlocked
		reached[1][632] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: start = 0(712, 634, 712) */
		reached[1][634] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->start);
		((P1 *)_this)->start = 0;
#ifdef VAR_RANGES
		logval("Client:start", ((int)((P1 *)_this)->start));
#endif
		;
		/* merge: dl = 0(712, 635, 712) */
		reached[1][635] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->dl);
		((P1 *)_this)->dl = 0;
#ifdef VAR_RANGES
		logval("Client:dl", ((int)((P1 *)_this)->dl));
#endif
		;
		/* merge: t2 = 0(712, 636, 712) */
		reached[1][636] = 1;
		(trpt+1)->bup.ovals[3] = ((int)((P1 *)_this)->t2);
		((P1 *)_this)->t2 = 0;
#ifdef VAR_RANGES
		logval("Client:t2", ((int)((P1 *)_this)->t2));
#endif
		;
		/* merge: .(goto)(0, 640, 712) */
		reached[1][640] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 223: // STATE 641 - client.pml:203 - [((held[c]!=0))] (659:0:2 - 1)
		IfNotBlocked
		reached[1][641] = 1;
		if (!((((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ])!=0)))
			continue;
		/* merge: held[c] = 0(659, 642, 659) */
		reached[1][642] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.held[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("held[Client:c]", ((int)now.held[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: until[c] = 0(659, 643, 659) */
		reached[1][643] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.until[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("until[Client:c]", ((int)now.until[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 224: // STATE 644 - client.pml:12 - [tag = (tag+1)] (0:655:6 - 1)
		IfNotBlocked
		reached[1][644] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->tag);
		((P1 *)_this)->tag = (((int)((P1 *)_this)->tag)+1);
#ifdef VAR_RANGES
		logval("Client:tag", ((int)((P1 *)_this)->tag));
#endif
		;
		/* merge: cur[c] = tag(655, 645, 655) */
		reached[1][645] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = ((int)((P1 *)_this)->tag);
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(655, 646, 655) */
		reached[1][646] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(655, 647, 655) */
		reached[1][647] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(655, 648, 655) */
		reached[1][648] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(655, 649, 655) */
		reached[1][649] = 1;
		(trpt+1)->bup.ovals[5] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 656, 655) */
		reached[1][656] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 225: // STATE 650 - client.pml:17 - [((j<=(3-1)))] (655:0:2 - 1)
		IfNotBlocked
		reached[1][650] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(655, 651, 655) */
		reached[1][651] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(655, 652, 655) */
		reached[1][652] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 656, 655) */
		reached[1][656] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 226: // STATE 658 - client.pml:20 - [j = 0] (0:691:2 - 3)
		IfNotBlocked
		reached[1][658] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: j = 0(691, 660, 691) */
		reached[1][660] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 692, 691) */
		reached[1][692] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 227: // STATE 661 - client.pml:207 - [((j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][661] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 228: // STATE 662 - client.pml:43 - [(!(m[j].up))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][662] = 1;
		if (!( !(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 229: // STATE 663 - client.pml:45 - [(!(answered[((c*3)+j)]))] (691:0:3 - 1)
		IfNotBlocked
		reached[1][663] = 1;
		if (!( !(((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		/* merge: answered[((c*3)+j)] = 1(691, 664, 691) */
		reached[1][664] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: bad[c] = (bad[c]+1)(691, 665, 691) */
		reached[1][665] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = (((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: .(goto)(691, 668, 691) */
		reached[1][668] = 1;
		;
		/* merge: .(goto)(691, 686, 691) */
		reached[1][686] = 1;
		;
		/* merge: j = (j+1)(691, 688, 691) */
		reached[1][688] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 692, 691) */
		reached[1][692] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 230: // STATE 669 - client.pml:48 - [(m[j].up)] (0:0:0 - 1)
		IfNotBlocked
		reached[1][669] = 1;
		if (!(((int)now.m[ Index(((int)((P1 *)_this)->j), 3) ].up)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 231: // STATE 670 - client.pml:50 - [(broken[((c*3)+j)])] (675:0:1 - 1)
		IfNotBlocked
		reached[1][670] = 1;
		if (!(((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: broken[((c*3)+j)] = 0(0, 671, 675) */
		reached[1][671] = 1;
		(trpt+1)->bup.oval = ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.broken[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("broken[((Client:c*3)+Client:j)]", ((int)now.broken[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 232: // STATE 672 - client.pml:53 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][672] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 233: // STATE 673 - client.pml:53 - [req[((c*3)+j)]!KILL,0,0,tag] (0:0:0 - 1)
		IfNotBlocked
		reached[1][673] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 1); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 1, 0, 0, ((int)((P1 *)_this)->tag), 4);
		_m = 2; goto P999; /* 0 */
	case 234: // STATE 674 - client.pml:54 - [(full(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][674] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		_m = 3; goto P999; /* 0 */
	case 235: // STATE 680 - client.pml:59 - [(nfull(req[((c*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[1][680] = 1;
		if (!((!q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 236: // STATE 681 - client.pml:59 - [req[((c*3)+j)]!2,v,0,tag] (691:0:1 - 1)
		IfNotBlocked
		reached[1][681] = 1;
		if (q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]))
			continue;
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[64];
			sprintf(simvals, "%d!", now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", 2); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->v)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", 0); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)((P1 *)_this)->tag)); strcat(simvals, simtmp);		}
#endif
		
		qsend(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ], 0, 2, ((int)((P1 *)_this)->v), 0, ((int)((P1 *)_this)->tag), 4);
		/* merge: .(goto)(691, 684, 691) */
		reached[1][684] = 1;
		;
		/* merge: .(goto)(691, 686, 691) */
		reached[1][686] = 1;
		;
		/* merge: j = (j+1)(691, 688, 691) */
		reached[1][688] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 692, 691) */
		reached[1][692] = 1;
		;
		_m = 2; goto P999; /* 4 */
	case 237: // STATE 682 - client.pml:60 - [(full(req[((c*3)+j)]))] (691:0:1 - 1)
		IfNotBlocked
		reached[1][682] = 1;
		if (!(q_full(now.req[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ])))
			continue;
		/* merge: .(goto)(691, 684, 691) */
		reached[1][684] = 1;
		;
		/* merge: .(goto)(691, 686, 691) */
		reached[1][686] = 1;
		;
		/* merge: j = (j+1)(691, 688, 691) */
		reached[1][688] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 692, 691) */
		reached[1][692] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 238: // STATE 688 - client.pml:207 - [j = (j+1)] (0:691:1 - 7)
		IfNotBlocked
		reached[1][688] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 692, 691) */
		reached[1][692] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 239: // STATE 694 - client.pml:26 - [cur[c] = 0] (0:704:5 - 1)
		IfNotBlocked
		reached[1][694] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.cur[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("cur[Client:c]", ((int)now.cur[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: oks[c] = 0(704, 695, 704) */
		reached[1][695] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.oks[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("oks[Client:c]", ((int)now.oks[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: nos[c] = 0(704, 696, 704) */
		reached[1][696] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.nos[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("nos[Client:c]", ((int)now.nos[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: bad[c] = 0(704, 697, 704) */
		reached[1][697] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]);
		now.bad[ Index(((P1 *)_this)->c, 2) ] = 0;
#ifdef VAR_RANGES
		logval("bad[Client:c]", ((int)now.bad[ Index(((int)((P1 *)_this)->c), 2) ]));
#endif
		;
		/* merge: j = 0(704, 698, 704) */
		reached[1][698] = 1;
		(trpt+1)->bup.ovals[4] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 705, 704) */
		reached[1][705] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 240: // STATE 699 - client.pml:30 - [((j<=(3-1)))] (704:0:2 - 1)
		IfNotBlocked
		reached[1][699] = 1;
		if (!((((int)((P1 *)_this)->j)<=(3-1))))
			continue;
		/* merge: answered[((c*3)+j)] = 0(704, 700, 704) */
		reached[1][700] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]);
		now.answered[ Index(((((P1 *)_this)->c*3)+((P1 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("answered[((Client:c*3)+Client:j)]", ((int)now.answered[ Index(((((int)((P1 *)_this)->c)*3)+((int)((P1 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: j = (j+1)(704, 701, 704) */
		reached[1][701] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = (((int)((P1 *)_this)->j)+1);
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(0, 705, 704) */
		reached[1][705] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 241: // STATE 707 - client.pml:33 - [j = 0] (0:713:1 - 3)
		IfNotBlocked
		reached[1][707] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->j);
		((P1 *)_this)->j = 0;
#ifdef VAR_RANGES
		logval("Client:j", ((int)((P1 *)_this)->j));
#endif
		;
		/* merge: .(goto)(713, 711, 713) */
		reached[1][711] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 242: // STATE 711 - client.pml:213 - [.(goto)] (0:713:0 - 2)
		IfNotBlocked
		reached[1][711] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 243: // STATE 714 - client.pml:217 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[1][714] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC Master */
	case 244: // STATE 1 - master.pml:129 - [((m[j].up&&nempty(req[((0*3)+j)])))] (3:0:1 - 1)
		IfNotBlocked
		reached[0][1] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up)&&(q_len(now.req[ Index(((0*3)+((int)((P0 *)_this)->j)), 6) ])>0))))
			continue;
		/* merge: mc = 0(0, 2, 3) */
		reached[0][2] = 1;
		(trpt+1)->bup.oval = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 245: // STATE 3 - master.pml:129 - [req[((mc*3)+j)]?mop,mv,mt,mtag] (0:0:4 - 1)
		reached[0][3] = 1;
		if (q_len(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]) == 0) continue;

		XX=1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = mop;
		(trpt+1)->bup.ovals[1] = ((int)mv);
		(trpt+1)->bup.ovals[2] = ((int)mt);
		(trpt+1)->bup.ovals[3] = ((int)mtag);
		;
		mop = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, 0);
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		mv = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, 0);
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		mt = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, 0);
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		mtag = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, 1);
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[32];
			sprintf(simvals, "%d?", now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", mop); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mv)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mt)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mtag)); strcat(simvals, simtmp);		}
#endif
		;
		_m = 4; goto P999; /* 0 */
	case 246: // STATE 4 - master.pml:129 - [((mop==KILL))] (113:0:2 - 1)
		IfNotBlocked
		reached[0][4] = 1;
		if (!((mop==1)))
			continue;
		/* merge: zval[((mc*3)+j)] = 0(113, 5, 113) */
		reached[0][5] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(113, 6, 113) */
		reached[0][6] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 247: // STATE 8 - master.pml:55 - [mres = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[0][8] = 1;
		(trpt+1)->bup.oval = ((int)mres);
		mres = 2;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 248: // STATE 9 - master.pml:36 - [s1 = 255] (0:20:2 - 1)
		IfNotBlocked
		reached[0][9] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: s = 0(20, 10, 20) */
		reached[0][10] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 21, 20) */
		reached[0][21] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 249: // STATE 11 - master.pml:37 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][11] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 250: // STATE 12 - master.pml:39 - [((m[j].val[s]==mv))] (20:0:2 - 1)
		IfNotBlocked
		reached[0][12] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])==((int)mv))))
			continue;
		/* merge: s1 = s(20, 13, 20) */
		reached[0][13] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(20, 16, 20) */
		reached[0][16] = 1;
		;
		/* merge: s = (s+1)(20, 17, 20) */
		reached[0][17] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 21, 20) */
		reached[0][21] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 251: // STATE 17 - master.pml:37 - [s = (s+1)] (0:20:1 - 3)
		IfNotBlocked
		reached[0][17] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 21, 20) */
		reached[0][21] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 252: // STATE 24 - master.pml:58 - [(((mop==SET)&&(s1==255)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][24] = 1;
		if (!(((mop==4)&&(((int)s1)==255))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 253: // STATE 25 - master.pml:10 - [s1 = 255] (0:44:4 - 1)
		IfNotBlocked
		reached[0][25] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(44, 26, 44) */
		reached[0][26] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(44, 27, 44) */
		reached[0][27] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(44, 28, 44) */
		reached[0][28] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 45, 44) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 254: // STATE 29 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][29] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 255: // STATE 30 - master.pml:15 - [((m[j].val[s]!=0))] (35:0:1 - 1)
		IfNotBlocked
		reached[0][30] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 31, 35) */
		reached[0][31] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 256: // STATE 32 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (44:0:2 - 1)
		IfNotBlocked
		reached[0][32] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(44, 33, 44) */
		reached[0][33] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(44, 36, 44) */
		reached[0][36] = 1;
		;
		/* merge: .(goto)(44, 40, 44) */
		reached[0][40] = 1;
		;
		/* merge: s = (s+1)(44, 41, 44) */
		reached[0][41] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 45, 44) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 257: // STATE 38 - master.pml:21 - [s1 = s] (0:44:2 - 1)
		IfNotBlocked
		reached[0][38] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(44, 40, 44) */
		reached[0][40] = 1;
		;
		/* merge: s = (s+1)(44, 41, 44) */
		reached[0][41] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 45, 44) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 258: // STATE 41 - master.pml:13 - [s = (s+1)] (0:44:1 - 5)
		IfNotBlocked
		reached[0][41] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 45, 44) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 259: // STATE 48 - master.pml:61 - [((s1!=255))] (113:0:6 - 1)
		IfNotBlocked
		reached[0][48] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = mv(113, 49, 113) */
		reached[0][49] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)mv);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+mt)-( (m[j].fast) -> (1) : (0) ))(113, 50, 113) */
		reached[0][50] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+((int)mt))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(113, 51, 113) */
		reached[0][51] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(113, 54, 113) */
		reached[0][54] = 1;
		;
		/* merge: .(goto)(113, 95, 113) */
		reached[0][95] = 1;
		;
		/* merge: s1 = 0(113, 96, 113) */
		reached[0][96] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(113, 97, 113) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(113, 98, 113) */
		reached[0][98] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 260: // STATE 55 - master.pml:64 - [(((mop==EXT)&&(s1!=255)))] (113:0:5 - 1)
		IfNotBlocked
		reached[0][55] = 1;
		if (!(((mop==3)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].exp[s1] = ((now+(mt&127))-( (m[j].fast) -> (1) : (0) ))(113, 56, 113) */
		reached[0][56] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)mt)&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(113, 57, 113) */
		reached[0][57] = 1;
		(trpt+1)->bup.ovals[1] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(113, 95, 113) */
		reached[0][95] = 1;
		;
		/* merge: s1 = 0(113, 96, 113) */
		reached[0][96] = 1;
		(trpt+1)->bup.ovals[2] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(113, 97, 113) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[3] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(113, 98, 113) */
		reached[0][98] = 1;
		(trpt+1)->bup.ovals[4] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 7 */
	case 261: // STATE 58 - master.pml:67 - [((((mop==EXT)&&(s1==255))&&((mt&128)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][58] = 1;
		if (!((((mop==3)&&(((int)s1)==255))&&((((int)mt)&128)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 262: // STATE 59 - master.pml:10 - [s1 = 255] (0:78:4 - 1)
		IfNotBlocked
		reached[0][59] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(78, 60, 78) */
		reached[0][60] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(78, 61, 78) */
		reached[0][61] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(78, 62, 78) */
		reached[0][62] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 79, 78) */
		reached[0][79] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 263: // STATE 63 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][63] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 264: // STATE 64 - master.pml:15 - [((m[j].val[s]!=0))] (69:0:1 - 1)
		IfNotBlocked
		reached[0][64] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 65, 69) */
		reached[0][65] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 265: // STATE 66 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (78:0:2 - 1)
		IfNotBlocked
		reached[0][66] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(78, 67, 78) */
		reached[0][67] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(78, 70, 78) */
		reached[0][70] = 1;
		;
		/* merge: .(goto)(78, 74, 78) */
		reached[0][74] = 1;
		;
		/* merge: s = (s+1)(78, 75, 78) */
		reached[0][75] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 79, 78) */
		reached[0][79] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 266: // STATE 72 - master.pml:21 - [s1 = s] (0:78:2 - 1)
		IfNotBlocked
		reached[0][72] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(78, 74, 78) */
		reached[0][74] = 1;
		;
		/* merge: s = (s+1)(78, 75, 78) */
		reached[0][75] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 79, 78) */
		reached[0][79] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 267: // STATE 75 - master.pml:13 - [s = (s+1)] (0:78:1 - 5)
		IfNotBlocked
		reached[0][75] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 79, 78) */
		reached[0][79] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 268: // STATE 82 - master.pml:70 - [((s1!=255))] (113:0:6 - 1)
		IfNotBlocked
		reached[0][82] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = mv(113, 83, 113) */
		reached[0][83] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)mv);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+(mt&127))-( (m[j].fast) -> (1) : (0) ))(113, 84, 113) */
		reached[0][84] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)mt)&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(113, 85, 113) */
		reached[0][85] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(113, 88, 113) */
		reached[0][88] = 1;
		;
		/* merge: .(goto)(113, 95, 113) */
		reached[0][95] = 1;
		;
		/* merge: s1 = 0(113, 96, 113) */
		reached[0][96] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(113, 97, 113) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(113, 98, 113) */
		reached[0][98] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 269: // STATE 89 - master.pml:73 - [(((mop==DEL)&&(s1!=255)))] (113:0:6 - 1)
		IfNotBlocked
		reached[0][89] = 1;
		if (!(((mop==2)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].val[s1] = 0(113, 90, 113) */
		reached[0][90] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = 0(113, 91, 113) */
		reached[0][91] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(113, 92, 113) */
		reached[0][92] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(113, 95, 113) */
		reached[0][95] = 1;
		;
		/* merge: s1 = 0(113, 96, 113) */
		reached[0][96] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(113, 97, 113) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(113, 98, 113) */
		reached[0][98] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 270: // STATE 96 - master.pml:79 - [s1 = 0] (0:113:3 - 10)
		IfNotBlocked
		reached[0][96] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(113, 97, 113) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(113, 98, 113) */
		reached[0][98] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 101, 113) */
		reached[0][101] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 271: // STATE 102 - master.pml:129 - [((((mop!=KILL)&&(mtag==cur[mc]))&&!(answered[((mc*3)+j)])))] (110:0:1 - 1)
		IfNotBlocked
		reached[0][102] = 1;
		if (!((((mop!=1)&&(((int)mtag)==((int)now.cur[ Index(((int)mc), 2) ])))&& !(((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])))))
			continue;
		/* merge: answered[((mc*3)+j)] = 1(0, 103, 110) */
		reached[0][103] = 1;
		(trpt+1)->bup.oval = ((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.answered[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((mc*3)+Master:j)]", ((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 272: // STATE 104 - master.pml:129 - [((mres==2))] (224:0:1 - 1)
		IfNotBlocked
		reached[0][104] = 1;
		if (!((((int)mres)==2)))
			continue;
		/* merge: nos[mc] = (nos[mc]+1)(0, 105, 224) */
		reached[0][105] = 1;
		(trpt+1)->bup.oval = ((int)now.nos[ Index(((int)mc), 2) ]);
		now.nos[ Index(mc, 2) ] = (((int)now.nos[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("nos[mc]", ((int)now.nos[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 111, 224) */
		reached[0][111] = 1;
		;
		/* merge: .(goto)(0, 114, 224) */
		reached[0][114] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 273: // STATE 106 - master.pml:129 - [(((mres==1)&&((m[j].since==0)||(((now+1)-m[j].since)>=(5+(1+1))))))] (224:0:1 - 1)
		IfNotBlocked
		reached[0][106] = 1;
		if (!(((((int)mres)==1)&&((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since)==0)||(((((int)now.now)+1)-((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since))>=(5+(1+1)))))))
			continue;
		/* merge: oks[mc] = (oks[mc]+1)(0, 107, 224) */
		reached[0][107] = 1;
		(trpt+1)->bup.oval = ((int)now.oks[ Index(((int)mc), 2) ]);
		now.oks[ Index(mc, 2) ] = (((int)now.oks[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("oks[mc]", ((int)now.oks[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 111, 224) */
		reached[0][111] = 1;
		;
		/* merge: .(goto)(0, 114, 224) */
		reached[0][114] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 274: // STATE 108 - master.pml:129 - [(((mres==1)&&!(((m[j].since==0)||(((now+1)-m[j].since)>=(5+(1+1)))))))] (224:0:1 - 1)
		IfNotBlocked
		reached[0][108] = 1;
		if (!(((((int)mres)==1)&& !(((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since)==0)||(((((int)now.now)+1)-((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since))>=(5+(1+1))))))))
			continue;
		/* merge: bad[mc] = (bad[mc]+1)(0, 109, 224) */
		reached[0][109] = 1;
		(trpt+1)->bup.oval = ((int)now.bad[ Index(((int)mc), 2) ]);
		now.bad[ Index(mc, 2) ] = (((int)now.bad[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[mc]", ((int)now.bad[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 111, 224) */
		reached[0][111] = 1;
		;
		/* merge: .(goto)(0, 114, 224) */
		reached[0][114] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 275: // STATE 115 - redlock.pml:168 - [ck_nh = 0] (0:132:3 - 1)
		IfNotBlocked
		reached[0][115] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(132, 116, 132) */
		reached[0][116] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(132, 117, 132) */
		reached[0][117] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 133, 132) */
		reached[0][133] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 276: // STATE 118 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][118] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 277: // STATE 119 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (124:0:1 - 1)
		IfNotBlocked
		reached[0][119] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 120, 124) */
		reached[0][120] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 278: // STATE 121 - redlock.pml:175 - [((role[ck_i]==0))] (132:0:2 - 1)
		IfNotBlocked
		reached[0][121] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(132, 122, 132) */
		reached[0][122] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(132, 125, 132) */
		reached[0][125] = 1;
		;
		/* merge: .(goto)(132, 128, 132) */
		reached[0][128] = 1;
		;
		/* merge: ck_i = (ck_i+1)(132, 129, 132) */
		reached[0][129] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 133, 132) */
		reached[0][133] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 279: // STATE 129 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:132:1 - 5)
		IfNotBlocked
		reached[0][129] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 133, 132) */
		reached[0][133] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 280: // STATE 135 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:187:2 - 3)
		IfNotBlocked
		reached[0][135] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(187, 137, 187) */
		reached[0][137] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(187, 138, 187) */
		reached[0][138] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 188, 187) */
		reached[0][188] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 281: // STATE 139 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][139] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 282: // STATE 140 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (177:0:2 - 1)
		IfNotBlocked
		reached[0][140] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(177, 141, 177) */
		reached[0][141] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(177, 142, 177) */
		reached[0][142] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 178, 177) */
		reached[0][178] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 283: // STATE 143 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][143] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 284: // STATE 144 - redlock.pml:146 - [ck_g = 0] (0:155:2 - 1)
		IfNotBlocked
		reached[0][144] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(155, 145, 155) */
		reached[0][145] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 156, 155) */
		reached[0][156] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 285: // STATE 146 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][146] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 286: // STATE 147 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (155:0:2 - 1)
		IfNotBlocked
		reached[0][147] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(155, 148, 155) */
		reached[0][148] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(155, 151, 155) */
		reached[0][151] = 1;
		;
		/* merge: ck_s = (ck_s+1)(155, 152, 155) */
		reached[0][152] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 156, 155) */
		reached[0][156] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 287: // STATE 152 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:155:1 - 3)
		IfNotBlocked
		reached[0][152] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 156, 155) */
		reached[0][156] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 288: // STATE 158 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (166:0:1 - 1)
		IfNotBlocked
		reached[0][158] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 159, 166) */
		reached[0][159] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 162, 166) */
		reached[0][162] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 289: // STATE 163 - redlock.pml:160 - [(!(m[ck_j].up))] (172:0:1 - 1)
		IfNotBlocked
		reached[0][163] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 164, 172) */
		reached[0][164] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 167, 172) */
		reached[0][167] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 290: // STATE 169 - redlock.pml:205 - [(ck_g)] (177:0:2 - 1)
		IfNotBlocked
		reached[0][169] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(177, 170, 177) */
		reached[0][170] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(177, 173, 177) */
		reached[0][173] = 1;
		;
		/* merge: ck_j = (ck_j+1)(177, 174, 177) */
		reached[0][174] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 178, 177) */
		reached[0][178] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 291: // STATE 174 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:177:1 - 3)
		IfNotBlocked
		reached[0][174] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 178, 177) */
		reached[0][178] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 292: // STATE 180 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:187:1 - 3)
		IfNotBlocked
		reached[0][180] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(187, 183, 187) */
		reached[0][183] = 1;
		;
		/* merge: ck_i = (ck_i+1)(187, 184, 187) */
		reached[0][184] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 188, 187) */
		reached[0][188] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 293: // STATE 184 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:187:1 - 3)
		IfNotBlocked
		reached[0][184] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 188, 187) */
		reached[0][188] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 294: // STATE 190 - redlock.pml:213 - [ck_j = 0] (0:204:1 - 3)
		IfNotBlocked
		reached[0][190] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 205, 204) */
		reached[0][205] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 295: // STATE 191 - redlock.pml:213 - [((ck_j<=(3-1)))] (198:0:1 - 1)
		IfNotBlocked
		reached[0][191] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 192, 198) */
		reached[0][192] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 199, 198) */
		reached[0][199] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 296: // STATE 193 - redlock.pml:214 - [((ck_s<=(1-1)))] (198:0:1 - 1)
		IfNotBlocked
		reached[0][193] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(198, 194, 198) */
		reached[0][194] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(198, 195, 198) */
		reached[0][195] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 199, 198) */
		reached[0][199] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 297: // STATE 201 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:204:1 - 3)
		IfNotBlocked
		reached[0][201] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 205, 204) */
		reached[0][205] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 298: // STATE 207 - redlock.pml:218 - [ck_j = 0] (0:213:1 - 3)
		IfNotBlocked
		reached[0][207] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 214, 213) */
		reached[0][214] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 299: // STATE 208 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (213:0:1 - 1)
		IfNotBlocked
		reached[0][208] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(213, 209, 213) */
		reached[0][209] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(213, 210, 213) */
		reached[0][210] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 214, 213) */
		reached[0][214] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 300: // STATE 216 - redlock.pml:221 - [ck_q = 0] (0:1028:14 - 3)
		IfNotBlocked
		reached[0][216] = 1;
		(trpt+1)->bup.ovals = grab_ints(14);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(1028, 217, 1028) */
		reached[0][217] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(1028, 218, 1028) */
		reached[0][218] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(1028, 219, 1028) */
		reached[0][219] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(1028, 220, 1028) */
		reached[0][220] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(1028, 221, 1028) */
		reached[0][221] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(1028, 222, 1028) */
		reached[0][222] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(1028, 223, 1028) */
		reached[0][223] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: mc = 0(1028, 225, 1028) */
		reached[0][225] = 1;
		(trpt+1)->bup.ovals[8] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: mv = 0(1028, 226, 1028) */
		reached[0][226] = 1;
		(trpt+1)->bup.ovals[9] = ((int)mv);
		mv = 0;
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		/* merge: mt = 0(1028, 227, 1028) */
		reached[0][227] = 1;
		(trpt+1)->bup.ovals[10] = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: mtag = 0(1028, 228, 1028) */
		reached[0][228] = 1;
		(trpt+1)->bup.ovals[11] = ((int)mtag);
		mtag = 0;
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		/* merge: mres = 0(1028, 229, 1028) */
		reached[0][229] = 1;
		(trpt+1)->bup.ovals[12] = ((int)mres);
		mres = 0;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: mop = 0(1028, 230, 1028) */
		reached[0][230] = 1;
		(trpt+1)->bup.ovals[13] = mop;
		mop = 0;
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 14 */
	case 301: // STATE 232 - master.pml:129 - [((m[j].up&&(zval[((0*3)+j)]!=0)))] (325:0:1 - 1)
		IfNotBlocked
		reached[0][232] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up)&&(((int)now.zval[ Index(((0*3)+((int)((P0 *)_this)->j)), 6) ])!=0))))
			continue;
		/* merge: mc = 0(0, 233, 325) */
		reached[0][233] = 1;
		(trpt+1)->bup.oval = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 302: // STATE 234 - master.pml:55 - [mres = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[0][234] = 1;
		(trpt+1)->bup.oval = ((int)mres);
		mres = 2;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 303: // STATE 235 - master.pml:36 - [s1 = 255] (0:246:2 - 1)
		IfNotBlocked
		reached[0][235] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: s = 0(246, 236, 246) */
		reached[0][236] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 247, 246) */
		reached[0][247] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 304: // STATE 237 - master.pml:37 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][237] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 305: // STATE 238 - master.pml:39 - [((m[j].val[s]==zval[((mc*3)+j)]))] (246:0:2 - 1)
		IfNotBlocked
		reached[0][238] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])==((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]))))
			continue;
		/* merge: s1 = s(246, 239, 246) */
		reached[0][239] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(246, 242, 246) */
		reached[0][242] = 1;
		;
		/* merge: s = (s+1)(246, 243, 246) */
		reached[0][243] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 247, 246) */
		reached[0][247] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 306: // STATE 243 - master.pml:37 - [s = (s+1)] (0:246:1 - 3)
		IfNotBlocked
		reached[0][243] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 247, 246) */
		reached[0][247] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 307: // STATE 250 - master.pml:58 - [(((4==SET)&&(s1==255)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][250] = 1;
		if (!(((4==4)&&(((int)s1)==255))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 308: // STATE 251 - master.pml:10 - [s1 = 255] (0:270:4 - 1)
		IfNotBlocked
		reached[0][251] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(270, 252, 270) */
		reached[0][252] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(270, 253, 270) */
		reached[0][253] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(270, 254, 270) */
		reached[0][254] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 271, 270) */
		reached[0][271] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 309: // STATE 255 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][255] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 310: // STATE 256 - master.pml:15 - [((m[j].val[s]!=0))] (261:0:1 - 1)
		IfNotBlocked
		reached[0][256] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 257, 261) */
		reached[0][257] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 311: // STATE 258 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (270:0:2 - 1)
		IfNotBlocked
		reached[0][258] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(270, 259, 270) */
		reached[0][259] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(270, 262, 270) */
		reached[0][262] = 1;
		;
		/* merge: .(goto)(270, 266, 270) */
		reached[0][266] = 1;
		;
		/* merge: s = (s+1)(270, 267, 270) */
		reached[0][267] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 271, 270) */
		reached[0][271] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 312: // STATE 264 - master.pml:21 - [s1 = s] (0:270:2 - 1)
		IfNotBlocked
		reached[0][264] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(270, 266, 270) */
		reached[0][266] = 1;
		;
		/* merge: s = (s+1)(270, 267, 270) */
		reached[0][267] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 271, 270) */
		reached[0][271] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 313: // STATE 267 - master.pml:13 - [s = (s+1)] (0:270:1 - 5)
		IfNotBlocked
		reached[0][267] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 271, 270) */
		reached[0][271] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 314: // STATE 274 - master.pml:61 - [((s1!=255))] (437:0:8 - 1)
		IfNotBlocked
		reached[0][274] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = zval[((mc*3)+j)](437, 275, 437) */
		reached[0][275] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+zttl[((mc*3)+j)])-( (m[j].fast) -> (1) : (0) ))(437, 276, 437) */
		reached[0][276] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(437, 277, 437) */
		reached[0][277] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(437, 280, 437) */
		reached[0][280] = 1;
		;
		/* merge: .(goto)(437, 321, 437) */
		reached[0][321] = 1;
		;
		/* merge: s1 = 0(437, 322, 437) */
		reached[0][322] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(437, 323, 437) */
		reached[0][323] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(437, 324, 437) */
		reached[0][324] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(437, 326, 437) */
		reached[0][326] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(437, 327, 437) */
		reached[0][327] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 10 */
	case 315: // STATE 281 - master.pml:64 - [(((4==EXT)&&(s1!=255)))] (437:0:7 - 1)
		IfNotBlocked
		reached[0][281] = 1;
		if (!(((4==3)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].exp[s1] = ((now+(zttl[((mc*3)+j)]&127))-( (m[j].fast) -> (1) : (0) ))(437, 282, 437) */
		reached[0][282] = 1;
		(trpt+1)->bup.ovals = grab_ints(7);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(437, 283, 437) */
		reached[0][283] = 1;
		(trpt+1)->bup.ovals[1] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(437, 321, 437) */
		reached[0][321] = 1;
		;
		/* merge: s1 = 0(437, 322, 437) */
		reached[0][322] = 1;
		(trpt+1)->bup.ovals[2] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(437, 323, 437) */
		reached[0][323] = 1;
		(trpt+1)->bup.ovals[3] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(437, 324, 437) */
		reached[0][324] = 1;
		(trpt+1)->bup.ovals[4] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(437, 326, 437) */
		reached[0][326] = 1;
		(trpt+1)->bup.ovals[5] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(437, 327, 437) */
		reached[0][327] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 8 */
	case 316: // STATE 284 - master.pml:67 - [((((4==EXT)&&(s1==255))&&((zttl[((mc*3)+j)]&128)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][284] = 1;
		if (!((((4==3)&&(((int)s1)==255))&&((((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&128)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 317: // STATE 285 - master.pml:10 - [s1 = 255] (0:304:4 - 1)
		IfNotBlocked
		reached[0][285] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(304, 286, 304) */
		reached[0][286] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(304, 287, 304) */
		reached[0][287] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(304, 288, 304) */
		reached[0][288] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 305, 304) */
		reached[0][305] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 318: // STATE 289 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][289] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 319: // STATE 290 - master.pml:15 - [((m[j].val[s]!=0))] (295:0:1 - 1)
		IfNotBlocked
		reached[0][290] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 291, 295) */
		reached[0][291] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 320: // STATE 292 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (304:0:2 - 1)
		IfNotBlocked
		reached[0][292] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(304, 293, 304) */
		reached[0][293] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(304, 296, 304) */
		reached[0][296] = 1;
		;
		/* merge: .(goto)(304, 300, 304) */
		reached[0][300] = 1;
		;
		/* merge: s = (s+1)(304, 301, 304) */
		reached[0][301] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 305, 304) */
		reached[0][305] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 321: // STATE 298 - master.pml:21 - [s1 = s] (0:304:2 - 1)
		IfNotBlocked
		reached[0][298] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(304, 300, 304) */
		reached[0][300] = 1;
		;
		/* merge: s = (s+1)(304, 301, 304) */
		reached[0][301] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 305, 304) */
		reached[0][305] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 322: // STATE 301 - master.pml:13 - [s = (s+1)] (0:304:1 - 5)
		IfNotBlocked
		reached[0][301] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 305, 304) */
		reached[0][305] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 323: // STATE 308 - master.pml:70 - [((s1!=255))] (437:0:8 - 1)
		IfNotBlocked
		reached[0][308] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = zval[((mc*3)+j)](437, 309, 437) */
		reached[0][309] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+(zttl[((mc*3)+j)]&127))-( (m[j].fast) -> (1) : (0) ))(437, 310, 437) */
		reached[0][310] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(437, 311, 437) */
		reached[0][311] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(437, 314, 437) */
		reached[0][314] = 1;
		;
		/* merge: .(goto)(437, 321, 437) */
		reached[0][321] = 1;
		;
		/* merge: s1 = 0(437, 322, 437) */
		reached[0][322] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(437, 323, 437) */
		reached[0][323] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(437, 324, 437) */
		reached[0][324] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(437, 326, 437) */
		reached[0][326] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(437, 327, 437) */
		reached[0][327] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 10 */
	case 324: // STATE 315 - master.pml:73 - [(((4==DEL)&&(s1!=255)))] (437:0:8 - 1)
		IfNotBlocked
		reached[0][315] = 1;
		if (!(((4==2)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].val[s1] = 0(437, 316, 437) */
		reached[0][316] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = 0(437, 317, 437) */
		reached[0][317] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(437, 318, 437) */
		reached[0][318] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(437, 321, 437) */
		reached[0][321] = 1;
		;
		/* merge: s1 = 0(437, 322, 437) */
		reached[0][322] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(437, 323, 437) */
		reached[0][323] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(437, 324, 437) */
		reached[0][324] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(437, 326, 437) */
		reached[0][326] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(437, 327, 437) */
		reached[0][327] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 9 */
	case 325: // STATE 322 - master.pml:79 - [s1 = 0] (0:437:5 - 10)
		IfNotBlocked
		reached[0][322] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(437, 323, 437) */
		reached[0][323] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(437, 324, 437) */
		reached[0][324] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(437, 326, 437) */
		reached[0][326] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(437, 327, 437) */
		reached[0][327] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 4 */
	case 326: // STATE 328 - redlock.pml:168 - [ck_nh = 0] (0:345:3 - 1)
		IfNotBlocked
		reached[0][328] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(345, 329, 345) */
		reached[0][329] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(345, 330, 345) */
		reached[0][330] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 346, 345) */
		reached[0][346] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 327: // STATE 331 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][331] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 328: // STATE 332 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (337:0:1 - 1)
		IfNotBlocked
		reached[0][332] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 333, 337) */
		reached[0][333] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 329: // STATE 334 - redlock.pml:175 - [((role[ck_i]==0))] (345:0:2 - 1)
		IfNotBlocked
		reached[0][334] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(345, 335, 345) */
		reached[0][335] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(345, 338, 345) */
		reached[0][338] = 1;
		;
		/* merge: .(goto)(345, 341, 345) */
		reached[0][341] = 1;
		;
		/* merge: ck_i = (ck_i+1)(345, 342, 345) */
		reached[0][342] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 346, 345) */
		reached[0][346] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 330: // STATE 342 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:345:1 - 5)
		IfNotBlocked
		reached[0][342] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 346, 345) */
		reached[0][346] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 331: // STATE 348 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:400:2 - 3)
		IfNotBlocked
		reached[0][348] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(400, 350, 400) */
		reached[0][350] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(400, 351, 400) */
		reached[0][351] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 401, 400) */
		reached[0][401] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 332: // STATE 352 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][352] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 333: // STATE 353 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (390:0:2 - 1)
		IfNotBlocked
		reached[0][353] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(390, 354, 390) */
		reached[0][354] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(390, 355, 390) */
		reached[0][355] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 391, 390) */
		reached[0][391] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 334: // STATE 356 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][356] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 335: // STATE 357 - redlock.pml:146 - [ck_g = 0] (0:368:2 - 1)
		IfNotBlocked
		reached[0][357] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(368, 358, 368) */
		reached[0][358] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 369, 368) */
		reached[0][369] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 336: // STATE 359 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][359] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 337: // STATE 360 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (368:0:2 - 1)
		IfNotBlocked
		reached[0][360] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(368, 361, 368) */
		reached[0][361] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(368, 364, 368) */
		reached[0][364] = 1;
		;
		/* merge: ck_s = (ck_s+1)(368, 365, 368) */
		reached[0][365] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 369, 368) */
		reached[0][369] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 338: // STATE 365 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:368:1 - 3)
		IfNotBlocked
		reached[0][365] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 369, 368) */
		reached[0][369] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 339: // STATE 371 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (379:0:1 - 1)
		IfNotBlocked
		reached[0][371] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 372, 379) */
		reached[0][372] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 375, 379) */
		reached[0][375] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 340: // STATE 376 - redlock.pml:160 - [(!(m[ck_j].up))] (385:0:1 - 1)
		IfNotBlocked
		reached[0][376] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 377, 385) */
		reached[0][377] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 380, 385) */
		reached[0][380] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 341: // STATE 382 - redlock.pml:205 - [(ck_g)] (390:0:2 - 1)
		IfNotBlocked
		reached[0][382] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(390, 383, 390) */
		reached[0][383] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(390, 386, 390) */
		reached[0][386] = 1;
		;
		/* merge: ck_j = (ck_j+1)(390, 387, 390) */
		reached[0][387] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 391, 390) */
		reached[0][391] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 342: // STATE 387 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:390:1 - 3)
		IfNotBlocked
		reached[0][387] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 391, 390) */
		reached[0][391] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 343: // STATE 393 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:400:1 - 3)
		IfNotBlocked
		reached[0][393] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(400, 396, 400) */
		reached[0][396] = 1;
		;
		/* merge: ck_i = (ck_i+1)(400, 397, 400) */
		reached[0][397] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 401, 400) */
		reached[0][401] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 344: // STATE 397 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:400:1 - 3)
		IfNotBlocked
		reached[0][397] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 401, 400) */
		reached[0][401] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 345: // STATE 403 - redlock.pml:213 - [ck_j = 0] (0:417:1 - 3)
		IfNotBlocked
		reached[0][403] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 418, 417) */
		reached[0][418] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 346: // STATE 404 - redlock.pml:213 - [((ck_j<=(3-1)))] (411:0:1 - 1)
		IfNotBlocked
		reached[0][404] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 405, 411) */
		reached[0][405] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 412, 411) */
		reached[0][412] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 347: // STATE 406 - redlock.pml:214 - [((ck_s<=(1-1)))] (411:0:1 - 1)
		IfNotBlocked
		reached[0][406] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(411, 407, 411) */
		reached[0][407] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(411, 408, 411) */
		reached[0][408] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 412, 411) */
		reached[0][412] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 348: // STATE 414 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:417:1 - 3)
		IfNotBlocked
		reached[0][414] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 418, 417) */
		reached[0][418] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 349: // STATE 420 - redlock.pml:218 - [ck_j = 0] (0:426:1 - 3)
		IfNotBlocked
		reached[0][420] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 427, 426) */
		reached[0][427] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 350: // STATE 421 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (426:0:1 - 1)
		IfNotBlocked
		reached[0][421] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(426, 422, 426) */
		reached[0][422] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(426, 423, 426) */
		reached[0][423] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 427, 426) */
		reached[0][427] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 351: // STATE 429 - redlock.pml:221 - [ck_q = 0] (0:1028:10 - 3)
		IfNotBlocked
		reached[0][429] = 1;
		(trpt+1)->bup.ovals = grab_ints(10);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(1028, 430, 1028) */
		reached[0][430] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(1028, 431, 1028) */
		reached[0][431] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(1028, 432, 1028) */
		reached[0][432] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(1028, 433, 1028) */
		reached[0][433] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(1028, 434, 1028) */
		reached[0][434] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(1028, 435, 1028) */
		reached[0][435] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(1028, 436, 1028) */
		reached[0][436] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: mc = 0(1028, 438, 1028) */
		reached[0][438] = 1;
		(trpt+1)->bup.ovals[8] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: mres = 0(1028, 439, 1028) */
		reached[0][439] = 1;
		(trpt+1)->bup.ovals[9] = ((int)mres);
		mres = 0;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 10 */
	case 352: // STATE 441 - master.pml:130 - [((m[j].up&&nempty(req[((1*3)+j)])))] (443:0:1 - 1)
		IfNotBlocked
		reached[0][441] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up)&&(q_len(now.req[ Index(((1*3)+((int)((P0 *)_this)->j)), 6) ])>0))))
			continue;
		/* merge: mc = 1(0, 442, 443) */
		reached[0][442] = 1;
		(trpt+1)->bup.oval = ((int)mc);
		mc = 1;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 353: // STATE 443 - master.pml:130 - [req[((mc*3)+j)]?mop,mv,mt,mtag] (0:0:4 - 1)
		reached[0][443] = 1;
		if (q_len(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]) == 0) continue;

		XX=1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = mop;
		(trpt+1)->bup.ovals[1] = ((int)mv);
		(trpt+1)->bup.ovals[2] = ((int)mt);
		(trpt+1)->bup.ovals[3] = ((int)mtag);
		;
		mop = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, 0);
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		mv = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, 0);
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		mt = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, 0);
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		mtag = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, 1);
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[32];
			sprintf(simvals, "%d?", now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", mop); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mv)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mt)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)mtag)); strcat(simvals, simtmp);		}
#endif
		;
		_m = 4; goto P999; /* 0 */
	case 354: // STATE 444 - master.pml:130 - [((mop==KILL))] (553:0:2 - 1)
		IfNotBlocked
		reached[0][444] = 1;
		if (!((mop==1)))
			continue;
		/* merge: zval[((mc*3)+j)] = 0(553, 445, 553) */
		reached[0][445] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(553, 446, 553) */
		reached[0][446] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 355: // STATE 448 - master.pml:55 - [mres = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[0][448] = 1;
		(trpt+1)->bup.oval = ((int)mres);
		mres = 2;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 356: // STATE 449 - master.pml:36 - [s1 = 255] (0:460:2 - 1)
		IfNotBlocked
		reached[0][449] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: s = 0(460, 450, 460) */
		reached[0][450] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 461, 460) */
		reached[0][461] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 357: // STATE 451 - master.pml:37 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][451] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 358: // STATE 452 - master.pml:39 - [((m[j].val[s]==mv))] (460:0:2 - 1)
		IfNotBlocked
		reached[0][452] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])==((int)mv))))
			continue;
		/* merge: s1 = s(460, 453, 460) */
		reached[0][453] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(460, 456, 460) */
		reached[0][456] = 1;
		;
		/* merge: s = (s+1)(460, 457, 460) */
		reached[0][457] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 461, 460) */
		reached[0][461] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 359: // STATE 457 - master.pml:37 - [s = (s+1)] (0:460:1 - 3)
		IfNotBlocked
		reached[0][457] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 461, 460) */
		reached[0][461] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 360: // STATE 464 - master.pml:58 - [(((mop==SET)&&(s1==255)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][464] = 1;
		if (!(((mop==4)&&(((int)s1)==255))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 361: // STATE 465 - master.pml:10 - [s1 = 255] (0:484:4 - 1)
		IfNotBlocked
		reached[0][465] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(484, 466, 484) */
		reached[0][466] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(484, 467, 484) */
		reached[0][467] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(484, 468, 484) */
		reached[0][468] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 485, 484) */
		reached[0][485] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 362: // STATE 469 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][469] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 363: // STATE 470 - master.pml:15 - [((m[j].val[s]!=0))] (475:0:1 - 1)
		IfNotBlocked
		reached[0][470] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 471, 475) */
		reached[0][471] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 364: // STATE 472 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (484:0:2 - 1)
		IfNotBlocked
		reached[0][472] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(484, 473, 484) */
		reached[0][473] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(484, 476, 484) */
		reached[0][476] = 1;
		;
		/* merge: .(goto)(484, 480, 484) */
		reached[0][480] = 1;
		;
		/* merge: s = (s+1)(484, 481, 484) */
		reached[0][481] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 485, 484) */
		reached[0][485] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 365: // STATE 478 - master.pml:21 - [s1 = s] (0:484:2 - 1)
		IfNotBlocked
		reached[0][478] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(484, 480, 484) */
		reached[0][480] = 1;
		;
		/* merge: s = (s+1)(484, 481, 484) */
		reached[0][481] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 485, 484) */
		reached[0][485] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 366: // STATE 481 - master.pml:13 - [s = (s+1)] (0:484:1 - 5)
		IfNotBlocked
		reached[0][481] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 485, 484) */
		reached[0][485] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 367: // STATE 488 - master.pml:61 - [((s1!=255))] (553:0:6 - 1)
		IfNotBlocked
		reached[0][488] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = mv(553, 489, 553) */
		reached[0][489] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)mv);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+mt)-( (m[j].fast) -> (1) : (0) ))(553, 490, 553) */
		reached[0][490] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+((int)mt))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(553, 491, 553) */
		reached[0][491] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(553, 494, 553) */
		reached[0][494] = 1;
		;
		/* merge: .(goto)(553, 535, 553) */
		reached[0][535] = 1;
		;
		/* merge: s1 = 0(553, 536, 553) */
		reached[0][536] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(553, 537, 553) */
		reached[0][537] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(553, 538, 553) */
		reached[0][538] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 368: // STATE 495 - master.pml:64 - [(((mop==EXT)&&(s1!=255)))] (553:0:5 - 1)
		IfNotBlocked
		reached[0][495] = 1;
		if (!(((mop==3)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].exp[s1] = ((now+(mt&127))-( (m[j].fast) -> (1) : (0) ))(553, 496, 553) */
		reached[0][496] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)mt)&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(553, 497, 553) */
		reached[0][497] = 1;
		(trpt+1)->bup.ovals[1] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(553, 535, 553) */
		reached[0][535] = 1;
		;
		/* merge: s1 = 0(553, 536, 553) */
		reached[0][536] = 1;
		(trpt+1)->bup.ovals[2] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(553, 537, 553) */
		reached[0][537] = 1;
		(trpt+1)->bup.ovals[3] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(553, 538, 553) */
		reached[0][538] = 1;
		(trpt+1)->bup.ovals[4] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 7 */
	case 369: // STATE 498 - master.pml:67 - [((((mop==EXT)&&(s1==255))&&((mt&128)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][498] = 1;
		if (!((((mop==3)&&(((int)s1)==255))&&((((int)mt)&128)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 370: // STATE 499 - master.pml:10 - [s1 = 255] (0:518:4 - 1)
		IfNotBlocked
		reached[0][499] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(518, 500, 518) */
		reached[0][500] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(518, 501, 518) */
		reached[0][501] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(518, 502, 518) */
		reached[0][502] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 519, 518) */
		reached[0][519] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 371: // STATE 503 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][503] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 372: // STATE 504 - master.pml:15 - [((m[j].val[s]!=0))] (509:0:1 - 1)
		IfNotBlocked
		reached[0][504] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 505, 509) */
		reached[0][505] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 373: // STATE 506 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (518:0:2 - 1)
		IfNotBlocked
		reached[0][506] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(518, 507, 518) */
		reached[0][507] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(518, 510, 518) */
		reached[0][510] = 1;
		;
		/* merge: .(goto)(518, 514, 518) */
		reached[0][514] = 1;
		;
		/* merge: s = (s+1)(518, 515, 518) */
		reached[0][515] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 519, 518) */
		reached[0][519] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 374: // STATE 512 - master.pml:21 - [s1 = s] (0:518:2 - 1)
		IfNotBlocked
		reached[0][512] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(518, 514, 518) */
		reached[0][514] = 1;
		;
		/* merge: s = (s+1)(518, 515, 518) */
		reached[0][515] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 519, 518) */
		reached[0][519] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 375: // STATE 515 - master.pml:13 - [s = (s+1)] (0:518:1 - 5)
		IfNotBlocked
		reached[0][515] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 519, 518) */
		reached[0][519] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 376: // STATE 522 - master.pml:70 - [((s1!=255))] (553:0:6 - 1)
		IfNotBlocked
		reached[0][522] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = mv(553, 523, 553) */
		reached[0][523] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)mv);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+(mt&127))-( (m[j].fast) -> (1) : (0) ))(553, 524, 553) */
		reached[0][524] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)mt)&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(553, 525, 553) */
		reached[0][525] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(553, 528, 553) */
		reached[0][528] = 1;
		;
		/* merge: .(goto)(553, 535, 553) */
		reached[0][535] = 1;
		;
		/* merge: s1 = 0(553, 536, 553) */
		reached[0][536] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(553, 537, 553) */
		reached[0][537] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(553, 538, 553) */
		reached[0][538] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 377: // STATE 529 - master.pml:73 - [(((mop==DEL)&&(s1!=255)))] (553:0:6 - 1)
		IfNotBlocked
		reached[0][529] = 1;
		if (!(((mop==2)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].val[s1] = 0(553, 530, 553) */
		reached[0][530] = 1;
		(trpt+1)->bup.ovals = grab_ints(6);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = 0(553, 531, 553) */
		reached[0][531] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(553, 532, 553) */
		reached[0][532] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(553, 535, 553) */
		reached[0][535] = 1;
		;
		/* merge: s1 = 0(553, 536, 553) */
		reached[0][536] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(553, 537, 553) */
		reached[0][537] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(553, 538, 553) */
		reached[0][538] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 378: // STATE 536 - master.pml:79 - [s1 = 0] (0:553:3 - 10)
		IfNotBlocked
		reached[0][536] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(553, 537, 553) */
		reached[0][537] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(553, 538, 553) */
		reached[0][538] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(0, 541, 553) */
		reached[0][541] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 379: // STATE 542 - master.pml:130 - [((((mop!=KILL)&&(mtag==cur[mc]))&&!(answered[((mc*3)+j)])))] (550:0:1 - 1)
		IfNotBlocked
		reached[0][542] = 1;
		if (!((((mop!=1)&&(((int)mtag)==((int)now.cur[ Index(((int)mc), 2) ])))&& !(((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])))))
			continue;
		/* merge: answered[((mc*3)+j)] = 1(0, 543, 550) */
		reached[0][543] = 1;
		(trpt+1)->bup.oval = ((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.answered[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("answered[((mc*3)+Master:j)]", ((int)now.answered[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 380: // STATE 544 - master.pml:130 - [((mres==2))] (664:0:1 - 1)
		IfNotBlocked
		reached[0][544] = 1;
		if (!((((int)mres)==2)))
			continue;
		/* merge: nos[mc] = (nos[mc]+1)(0, 545, 664) */
		reached[0][545] = 1;
		(trpt+1)->bup.oval = ((int)now.nos[ Index(((int)mc), 2) ]);
		now.nos[ Index(mc, 2) ] = (((int)now.nos[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("nos[mc]", ((int)now.nos[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 551, 664) */
		reached[0][551] = 1;
		;
		/* merge: .(goto)(0, 554, 664) */
		reached[0][554] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 381: // STATE 546 - master.pml:130 - [(((mres==1)&&((m[j].since==0)||(((now+1)-m[j].since)>=(5+(1+1))))))] (664:0:1 - 1)
		IfNotBlocked
		reached[0][546] = 1;
		if (!(((((int)mres)==1)&&((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since)==0)||(((((int)now.now)+1)-((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since))>=(5+(1+1)))))))
			continue;
		/* merge: oks[mc] = (oks[mc]+1)(0, 547, 664) */
		reached[0][547] = 1;
		(trpt+1)->bup.oval = ((int)now.oks[ Index(((int)mc), 2) ]);
		now.oks[ Index(mc, 2) ] = (((int)now.oks[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("oks[mc]", ((int)now.oks[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 551, 664) */
		reached[0][551] = 1;
		;
		/* merge: .(goto)(0, 554, 664) */
		reached[0][554] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 382: // STATE 548 - master.pml:130 - [(((mres==1)&&!(((m[j].since==0)||(((now+1)-m[j].since)>=(5+(1+1)))))))] (664:0:1 - 1)
		IfNotBlocked
		reached[0][548] = 1;
		if (!(((((int)mres)==1)&& !(((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since)==0)||(((((int)now.now)+1)-((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since))>=(5+(1+1))))))))
			continue;
		/* merge: bad[mc] = (bad[mc]+1)(0, 549, 664) */
		reached[0][549] = 1;
		(trpt+1)->bup.oval = ((int)now.bad[ Index(((int)mc), 2) ]);
		now.bad[ Index(mc, 2) ] = (((int)now.bad[ Index(((int)mc), 2) ])+1);
#ifdef VAR_RANGES
		logval("bad[mc]", ((int)now.bad[ Index(((int)mc), 2) ]));
#endif
		;
		/* merge: .(goto)(0, 551, 664) */
		reached[0][551] = 1;
		;
		/* merge: .(goto)(0, 554, 664) */
		reached[0][554] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 383: // STATE 555 - redlock.pml:168 - [ck_nh = 0] (0:572:3 - 1)
		IfNotBlocked
		reached[0][555] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(572, 556, 572) */
		reached[0][556] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(572, 557, 572) */
		reached[0][557] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 573, 572) */
		reached[0][573] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 384: // STATE 558 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][558] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 385: // STATE 559 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (564:0:1 - 1)
		IfNotBlocked
		reached[0][559] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 560, 564) */
		reached[0][560] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 386: // STATE 561 - redlock.pml:175 - [((role[ck_i]==0))] (572:0:2 - 1)
		IfNotBlocked
		reached[0][561] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(572, 562, 572) */
		reached[0][562] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(572, 565, 572) */
		reached[0][565] = 1;
		;
		/* merge: .(goto)(572, 568, 572) */
		reached[0][568] = 1;
		;
		/* merge: ck_i = (ck_i+1)(572, 569, 572) */
		reached[0][569] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 573, 572) */
		reached[0][573] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 387: // STATE 569 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:572:1 - 5)
		IfNotBlocked
		reached[0][569] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 573, 572) */
		reached[0][573] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 388: // STATE 575 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:627:2 - 3)
		IfNotBlocked
		reached[0][575] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(627, 577, 627) */
		reached[0][577] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(627, 578, 627) */
		reached[0][578] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 628, 627) */
		reached[0][628] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 389: // STATE 579 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][579] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 390: // STATE 580 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (617:0:2 - 1)
		IfNotBlocked
		reached[0][580] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(617, 581, 617) */
		reached[0][581] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(617, 582, 617) */
		reached[0][582] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 618, 617) */
		reached[0][618] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 391: // STATE 583 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][583] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 392: // STATE 584 - redlock.pml:146 - [ck_g = 0] (0:595:2 - 1)
		IfNotBlocked
		reached[0][584] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(595, 585, 595) */
		reached[0][585] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 596, 595) */
		reached[0][596] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 393: // STATE 586 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][586] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 394: // STATE 587 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (595:0:2 - 1)
		IfNotBlocked
		reached[0][587] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(595, 588, 595) */
		reached[0][588] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(595, 591, 595) */
		reached[0][591] = 1;
		;
		/* merge: ck_s = (ck_s+1)(595, 592, 595) */
		reached[0][592] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 596, 595) */
		reached[0][596] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 395: // STATE 592 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:595:1 - 3)
		IfNotBlocked
		reached[0][592] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 596, 595) */
		reached[0][596] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 396: // STATE 598 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (606:0:1 - 1)
		IfNotBlocked
		reached[0][598] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 599, 606) */
		reached[0][599] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 602, 606) */
		reached[0][602] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 397: // STATE 603 - redlock.pml:160 - [(!(m[ck_j].up))] (612:0:1 - 1)
		IfNotBlocked
		reached[0][603] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 604, 612) */
		reached[0][604] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 607, 612) */
		reached[0][607] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 398: // STATE 609 - redlock.pml:205 - [(ck_g)] (617:0:2 - 1)
		IfNotBlocked
		reached[0][609] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(617, 610, 617) */
		reached[0][610] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(617, 613, 617) */
		reached[0][613] = 1;
		;
		/* merge: ck_j = (ck_j+1)(617, 614, 617) */
		reached[0][614] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 618, 617) */
		reached[0][618] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 399: // STATE 614 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:617:1 - 3)
		IfNotBlocked
		reached[0][614] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 618, 617) */
		reached[0][618] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 400: // STATE 620 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:627:1 - 3)
		IfNotBlocked
		reached[0][620] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(627, 623, 627) */
		reached[0][623] = 1;
		;
		/* merge: ck_i = (ck_i+1)(627, 624, 627) */
		reached[0][624] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 628, 627) */
		reached[0][628] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 401: // STATE 624 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:627:1 - 3)
		IfNotBlocked
		reached[0][624] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 628, 627) */
		reached[0][628] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 402: // STATE 630 - redlock.pml:213 - [ck_j = 0] (0:644:1 - 3)
		IfNotBlocked
		reached[0][630] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 645, 644) */
		reached[0][645] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 403: // STATE 631 - redlock.pml:213 - [((ck_j<=(3-1)))] (638:0:1 - 1)
		IfNotBlocked
		reached[0][631] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 632, 638) */
		reached[0][632] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 639, 638) */
		reached[0][639] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 404: // STATE 633 - redlock.pml:214 - [((ck_s<=(1-1)))] (638:0:1 - 1)
		IfNotBlocked
		reached[0][633] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(638, 634, 638) */
		reached[0][634] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(638, 635, 638) */
		reached[0][635] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 639, 638) */
		reached[0][639] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 405: // STATE 641 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:644:1 - 3)
		IfNotBlocked
		reached[0][641] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 645, 644) */
		reached[0][645] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 406: // STATE 647 - redlock.pml:218 - [ck_j = 0] (0:653:1 - 3)
		IfNotBlocked
		reached[0][647] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 654, 653) */
		reached[0][654] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 407: // STATE 648 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (653:0:1 - 1)
		IfNotBlocked
		reached[0][648] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(653, 649, 653) */
		reached[0][649] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(653, 650, 653) */
		reached[0][650] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 654, 653) */
		reached[0][654] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 408: // STATE 656 - redlock.pml:221 - [ck_q = 0] (0:1028:14 - 3)
		IfNotBlocked
		reached[0][656] = 1;
		(trpt+1)->bup.ovals = grab_ints(14);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(1028, 657, 1028) */
		reached[0][657] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(1028, 658, 1028) */
		reached[0][658] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(1028, 659, 1028) */
		reached[0][659] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(1028, 660, 1028) */
		reached[0][660] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(1028, 661, 1028) */
		reached[0][661] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(1028, 662, 1028) */
		reached[0][662] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(1028, 663, 1028) */
		reached[0][663] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: mc = 0(1028, 665, 1028) */
		reached[0][665] = 1;
		(trpt+1)->bup.ovals[8] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: mv = 0(1028, 666, 1028) */
		reached[0][666] = 1;
		(trpt+1)->bup.ovals[9] = ((int)mv);
		mv = 0;
#ifdef VAR_RANGES
		logval("mv", ((int)mv));
#endif
		;
		/* merge: mt = 0(1028, 667, 1028) */
		reached[0][667] = 1;
		(trpt+1)->bup.ovals[10] = ((int)mt);
		mt = 0;
#ifdef VAR_RANGES
		logval("mt", ((int)mt));
#endif
		;
		/* merge: mtag = 0(1028, 668, 1028) */
		reached[0][668] = 1;
		(trpt+1)->bup.ovals[11] = ((int)mtag);
		mtag = 0;
#ifdef VAR_RANGES
		logval("mtag", ((int)mtag));
#endif
		;
		/* merge: mres = 0(1028, 669, 1028) */
		reached[0][669] = 1;
		(trpt+1)->bup.ovals[12] = ((int)mres);
		mres = 0;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: mop = 0(1028, 670, 1028) */
		reached[0][670] = 1;
		(trpt+1)->bup.ovals[13] = mop;
		mop = 0;
#ifdef VAR_RANGES
		logval("mop", mop);
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 14 */
	case 409: // STATE 672 - master.pml:130 - [((m[j].up&&(zval[((1*3)+j)]!=0)))] (765:0:1 - 1)
		IfNotBlocked
		reached[0][672] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up)&&(((int)now.zval[ Index(((1*3)+((int)((P0 *)_this)->j)), 6) ])!=0))))
			continue;
		/* merge: mc = 1(0, 673, 765) */
		reached[0][673] = 1;
		(trpt+1)->bup.oval = ((int)mc);
		mc = 1;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 410: // STATE 674 - master.pml:55 - [mres = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[0][674] = 1;
		(trpt+1)->bup.oval = ((int)mres);
		mres = 2;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 411: // STATE 675 - master.pml:36 - [s1 = 255] (0:686:2 - 1)
		IfNotBlocked
		reached[0][675] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: s = 0(686, 676, 686) */
		reached[0][676] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 687, 686) */
		reached[0][687] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 412: // STATE 677 - master.pml:37 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][677] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 413: // STATE 678 - master.pml:39 - [((m[j].val[s]==zval[((mc*3)+j)]))] (686:0:2 - 1)
		IfNotBlocked
		reached[0][678] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])==((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]))))
			continue;
		/* merge: s1 = s(686, 679, 686) */
		reached[0][679] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(686, 682, 686) */
		reached[0][682] = 1;
		;
		/* merge: s = (s+1)(686, 683, 686) */
		reached[0][683] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 687, 686) */
		reached[0][687] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 414: // STATE 683 - master.pml:37 - [s = (s+1)] (0:686:1 - 3)
		IfNotBlocked
		reached[0][683] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 687, 686) */
		reached[0][687] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 415: // STATE 690 - master.pml:58 - [(((4==SET)&&(s1==255)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][690] = 1;
		if (!(((4==4)&&(((int)s1)==255))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 416: // STATE 691 - master.pml:10 - [s1 = 255] (0:710:4 - 1)
		IfNotBlocked
		reached[0][691] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(710, 692, 710) */
		reached[0][692] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(710, 693, 710) */
		reached[0][693] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(710, 694, 710) */
		reached[0][694] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 711, 710) */
		reached[0][711] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 417: // STATE 695 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][695] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 418: // STATE 696 - master.pml:15 - [((m[j].val[s]!=0))] (701:0:1 - 1)
		IfNotBlocked
		reached[0][696] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 697, 701) */
		reached[0][697] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 419: // STATE 698 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (710:0:2 - 1)
		IfNotBlocked
		reached[0][698] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(710, 699, 710) */
		reached[0][699] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(710, 702, 710) */
		reached[0][702] = 1;
		;
		/* merge: .(goto)(710, 706, 710) */
		reached[0][706] = 1;
		;
		/* merge: s = (s+1)(710, 707, 710) */
		reached[0][707] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 711, 710) */
		reached[0][711] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 420: // STATE 704 - master.pml:21 - [s1 = s] (0:710:2 - 1)
		IfNotBlocked
		reached[0][704] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(710, 706, 710) */
		reached[0][706] = 1;
		;
		/* merge: s = (s+1)(710, 707, 710) */
		reached[0][707] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 711, 710) */
		reached[0][711] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 421: // STATE 707 - master.pml:13 - [s = (s+1)] (0:710:1 - 5)
		IfNotBlocked
		reached[0][707] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 711, 710) */
		reached[0][711] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 422: // STATE 714 - master.pml:61 - [((s1!=255))] (877:0:8 - 1)
		IfNotBlocked
		reached[0][714] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = zval[((mc*3)+j)](877, 715, 877) */
		reached[0][715] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+zttl[((mc*3)+j)])-( (m[j].fast) -> (1) : (0) ))(877, 716, 877) */
		reached[0][716] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(877, 717, 877) */
		reached[0][717] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(877, 720, 877) */
		reached[0][720] = 1;
		;
		/* merge: .(goto)(877, 761, 877) */
		reached[0][761] = 1;
		;
		/* merge: s1 = 0(877, 762, 877) */
		reached[0][762] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(877, 763, 877) */
		reached[0][763] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(877, 764, 877) */
		reached[0][764] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(877, 766, 877) */
		reached[0][766] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(877, 767, 877) */
		reached[0][767] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 10 */
	case 423: // STATE 721 - master.pml:64 - [(((4==EXT)&&(s1!=255)))] (877:0:7 - 1)
		IfNotBlocked
		reached[0][721] = 1;
		if (!(((4==3)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].exp[s1] = ((now+(zttl[((mc*3)+j)]&127))-( (m[j].fast) -> (1) : (0) ))(877, 722, 877) */
		reached[0][722] = 1;
		(trpt+1)->bup.ovals = grab_ints(7);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(877, 723, 877) */
		reached[0][723] = 1;
		(trpt+1)->bup.ovals[1] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(877, 761, 877) */
		reached[0][761] = 1;
		;
		/* merge: s1 = 0(877, 762, 877) */
		reached[0][762] = 1;
		(trpt+1)->bup.ovals[2] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(877, 763, 877) */
		reached[0][763] = 1;
		(trpt+1)->bup.ovals[3] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(877, 764, 877) */
		reached[0][764] = 1;
		(trpt+1)->bup.ovals[4] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(877, 766, 877) */
		reached[0][766] = 1;
		(trpt+1)->bup.ovals[5] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(877, 767, 877) */
		reached[0][767] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 8 */
	case 424: // STATE 724 - master.pml:67 - [((((4==EXT)&&(s1==255))&&((zttl[((mc*3)+j)]&128)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][724] = 1;
		if (!((((4==3)&&(((int)s1)==255))&&((((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&128)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 425: // STATE 725 - master.pml:10 - [s1 = 255] (0:744:4 - 1)
		IfNotBlocked
		reached[0][725] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 255;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(744, 726, 744) */
		reached[0][726] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(744, 727, 744) */
		reached[0][727] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: s = 0(744, 728, 744) */
		reached[0][728] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s);
		s = 0;
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 745, 744) */
		reached[0][745] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 426: // STATE 729 - master.pml:13 - [((s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][729] = 1;
		if (!((((int)s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 427: // STATE 730 - master.pml:15 - [((m[j].val[s]!=0))] (735:0:1 - 1)
		IfNotBlocked
		reached[0][730] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])!=0)))
			continue;
		/* merge: busy = (busy+1)(0, 731, 735) */
		reached[0][731] = 1;
		(trpt+1)->bup.oval = ((int)busy);
		busy = (((int)busy)+1);
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 428: // STATE 732 - master.pml:18 - [((role[(m[j].val[s]/4)]==0))] (744:0:2 - 1)
		IfNotBlocked
		reached[0][732] = 1;
		if (!((((int)now.role[ Index((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s), 1) ])/4), 2) ])==0)))
			continue;
		/* merge: writer = (writer+1)(744, 733, 744) */
		reached[0][733] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)writer);
		writer = (((int)writer)+1);
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: .(goto)(744, 736, 744) */
		reached[0][736] = 1;
		;
		/* merge: .(goto)(744, 740, 744) */
		reached[0][740] = 1;
		;
		/* merge: s = (s+1)(744, 741, 744) */
		reached[0][741] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 745, 744) */
		reached[0][745] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 429: // STATE 738 - master.pml:21 - [s1 = s] (0:744:2 - 1)
		IfNotBlocked
		reached[0][738] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = ((int)s);
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: .(goto)(744, 740, 744) */
		reached[0][740] = 1;
		;
		/* merge: s = (s+1)(744, 741, 744) */
		reached[0][741] = 1;
		(trpt+1)->bup.ovals[1] = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 745, 744) */
		reached[0][745] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 430: // STATE 741 - master.pml:13 - [s = (s+1)] (0:744:1 - 5)
		IfNotBlocked
		reached[0][741] = 1;
		(trpt+1)->bup.oval = ((int)s);
		s = (((int)s)+1);
#ifdef VAR_RANGES
		logval("s", ((int)s));
#endif
		;
		/* merge: .(goto)(0, 745, 744) */
		reached[0][745] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 431: // STATE 748 - master.pml:70 - [((s1!=255))] (877:0:8 - 1)
		IfNotBlocked
		reached[0][748] = 1;
		if (!((((int)s1)!=255)))
			continue;
		/* merge: m[j].val[s1] = zval[((mc*3)+j)](877, 749, 877) */
		reached[0][749] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = ((now+(zttl[((mc*3)+j)]&127))-( (m[j].fast) -> (1) : (0) ))(877, 750, 877) */
		reached[0][750] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = ((((int)now.now)+(((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])&127))-( (((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].fast)) ? (1) : (0) ));
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(877, 751, 877) */
		reached[0][751] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(877, 754, 877) */
		reached[0][754] = 1;
		;
		/* merge: .(goto)(877, 761, 877) */
		reached[0][761] = 1;
		;
		/* merge: s1 = 0(877, 762, 877) */
		reached[0][762] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(877, 763, 877) */
		reached[0][763] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(877, 764, 877) */
		reached[0][764] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(877, 766, 877) */
		reached[0][766] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(877, 767, 877) */
		reached[0][767] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 10 */
	case 432: // STATE 755 - master.pml:73 - [(((4==DEL)&&(s1!=255)))] (877:0:8 - 1)
		IfNotBlocked
		reached[0][755] = 1;
		if (!(((4==2)&&(((int)s1)!=255))))
			continue;
		/* merge: m[j].val[s1] = 0(877, 756, 877) */
		reached[0][756] = 1;
		(trpt+1)->bup.ovals = grab_ints(8);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].val[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: m[j].exp[s1] = 0(877, 757, 877) */
		reached[0][757] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(s1, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].exp[s1]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)s1), 1) ]));
#endif
		;
		/* merge: mres = 1(877, 758, 877) */
		reached[0][758] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mres);
		mres = 1;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(877, 761, 877) */
		reached[0][761] = 1;
		;
		/* merge: s1 = 0(877, 762, 877) */
		reached[0][762] = 1;
		(trpt+1)->bup.ovals[3] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(877, 763, 877) */
		reached[0][763] = 1;
		(trpt+1)->bup.ovals[4] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(877, 764, 877) */
		reached[0][764] = 1;
		(trpt+1)->bup.ovals[5] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(877, 766, 877) */
		reached[0][766] = 1;
		(trpt+1)->bup.ovals[6] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(877, 767, 877) */
		reached[0][767] = 1;
		(trpt+1)->bup.ovals[7] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 9 */
	case 433: // STATE 762 - master.pml:79 - [s1 = 0] (0:877:5 - 10)
		IfNotBlocked
		reached[0][762] = 1;
		(trpt+1)->bup.ovals = grab_ints(5);
		(trpt+1)->bup.ovals[0] = ((int)s1);
		s1 = 0;
#ifdef VAR_RANGES
		logval("s1", ((int)s1));
#endif
		;
		/* merge: busy = 0(877, 763, 877) */
		reached[0][763] = 1;
		(trpt+1)->bup.ovals[1] = ((int)busy);
		busy = 0;
#ifdef VAR_RANGES
		logval("busy", ((int)busy));
#endif
		;
		/* merge: writer = 0(877, 764, 877) */
		reached[0][764] = 1;
		(trpt+1)->bup.ovals[2] = ((int)writer);
		writer = 0;
#ifdef VAR_RANGES
		logval("writer", ((int)writer));
#endif
		;
		/* merge: zval[((mc*3)+j)] = 0(877, 766, 877) */
		reached[0][766] = 1;
		(trpt+1)->bup.ovals[3] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(877, 767, 877) */
		reached[0][767] = 1;
		(trpt+1)->bup.ovals[4] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		_m = 3; goto P999; /* 4 */
	case 434: // STATE 768 - redlock.pml:168 - [ck_nh = 0] (0:785:3 - 1)
		IfNotBlocked
		reached[0][768] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(785, 769, 785) */
		reached[0][769] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(785, 770, 785) */
		reached[0][770] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 786, 785) */
		reached[0][786] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 435: // STATE 771 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][771] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 436: // STATE 772 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (777:0:1 - 1)
		IfNotBlocked
		reached[0][772] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 773, 777) */
		reached[0][773] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 437: // STATE 774 - redlock.pml:175 - [((role[ck_i]==0))] (785:0:2 - 1)
		IfNotBlocked
		reached[0][774] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(785, 775, 785) */
		reached[0][775] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(785, 778, 785) */
		reached[0][778] = 1;
		;
		/* merge: .(goto)(785, 781, 785) */
		reached[0][781] = 1;
		;
		/* merge: ck_i = (ck_i+1)(785, 782, 785) */
		reached[0][782] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 786, 785) */
		reached[0][786] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 438: // STATE 782 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:785:1 - 5)
		IfNotBlocked
		reached[0][782] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 786, 785) */
		reached[0][786] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 439: // STATE 788 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:840:2 - 3)
		IfNotBlocked
		reached[0][788] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(840, 790, 840) */
		reached[0][790] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(840, 791, 840) */
		reached[0][791] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 841, 840) */
		reached[0][841] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 440: // STATE 792 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][792] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 441: // STATE 793 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (830:0:2 - 1)
		IfNotBlocked
		reached[0][793] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(830, 794, 830) */
		reached[0][794] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(830, 795, 830) */
		reached[0][795] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 831, 830) */
		reached[0][831] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 442: // STATE 796 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][796] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 443: // STATE 797 - redlock.pml:146 - [ck_g = 0] (0:808:2 - 1)
		IfNotBlocked
		reached[0][797] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(808, 798, 808) */
		reached[0][798] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 809, 808) */
		reached[0][809] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 444: // STATE 799 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][799] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 445: // STATE 800 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (808:0:2 - 1)
		IfNotBlocked
		reached[0][800] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(808, 801, 808) */
		reached[0][801] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(808, 804, 808) */
		reached[0][804] = 1;
		;
		/* merge: ck_s = (ck_s+1)(808, 805, 808) */
		reached[0][805] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 809, 808) */
		reached[0][809] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 446: // STATE 805 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:808:1 - 3)
		IfNotBlocked
		reached[0][805] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 809, 808) */
		reached[0][809] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 447: // STATE 811 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (819:0:1 - 1)
		IfNotBlocked
		reached[0][811] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 812, 819) */
		reached[0][812] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 815, 819) */
		reached[0][815] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 448: // STATE 816 - redlock.pml:160 - [(!(m[ck_j].up))] (825:0:1 - 1)
		IfNotBlocked
		reached[0][816] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 817, 825) */
		reached[0][817] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 820, 825) */
		reached[0][820] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 449: // STATE 822 - redlock.pml:205 - [(ck_g)] (830:0:2 - 1)
		IfNotBlocked
		reached[0][822] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(830, 823, 830) */
		reached[0][823] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(830, 826, 830) */
		reached[0][826] = 1;
		;
		/* merge: ck_j = (ck_j+1)(830, 827, 830) */
		reached[0][827] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 831, 830) */
		reached[0][831] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 450: // STATE 827 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:830:1 - 3)
		IfNotBlocked
		reached[0][827] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 831, 830) */
		reached[0][831] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 451: // STATE 833 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:840:1 - 3)
		IfNotBlocked
		reached[0][833] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(840, 836, 840) */
		reached[0][836] = 1;
		;
		/* merge: ck_i = (ck_i+1)(840, 837, 840) */
		reached[0][837] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 841, 840) */
		reached[0][841] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 452: // STATE 837 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:840:1 - 3)
		IfNotBlocked
		reached[0][837] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 841, 840) */
		reached[0][841] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 453: // STATE 843 - redlock.pml:213 - [ck_j = 0] (0:857:1 - 3)
		IfNotBlocked
		reached[0][843] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 858, 857) */
		reached[0][858] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 454: // STATE 844 - redlock.pml:213 - [((ck_j<=(3-1)))] (851:0:1 - 1)
		IfNotBlocked
		reached[0][844] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 845, 851) */
		reached[0][845] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 852, 851) */
		reached[0][852] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 455: // STATE 846 - redlock.pml:214 - [((ck_s<=(1-1)))] (851:0:1 - 1)
		IfNotBlocked
		reached[0][846] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(851, 847, 851) */
		reached[0][847] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(851, 848, 851) */
		reached[0][848] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 852, 851) */
		reached[0][852] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 456: // STATE 854 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:857:1 - 3)
		IfNotBlocked
		reached[0][854] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 858, 857) */
		reached[0][858] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 457: // STATE 860 - redlock.pml:218 - [ck_j = 0] (0:866:1 - 3)
		IfNotBlocked
		reached[0][860] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 867, 866) */
		reached[0][867] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 458: // STATE 861 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (866:0:1 - 1)
		IfNotBlocked
		reached[0][861] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(866, 862, 866) */
		reached[0][862] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(866, 863, 866) */
		reached[0][863] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 867, 866) */
		reached[0][867] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 459: // STATE 869 - redlock.pml:221 - [ck_q = 0] (0:1028:10 - 3)
		IfNotBlocked
		reached[0][869] = 1;
		(trpt+1)->bup.ovals = grab_ints(10);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(1028, 870, 1028) */
		reached[0][870] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(1028, 871, 1028) */
		reached[0][871] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(1028, 872, 1028) */
		reached[0][872] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(1028, 873, 1028) */
		reached[0][873] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(1028, 874, 1028) */
		reached[0][874] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(1028, 875, 1028) */
		reached[0][875] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(1028, 876, 1028) */
		reached[0][876] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: mc = 0(1028, 878, 1028) */
		reached[0][878] = 1;
		(trpt+1)->bup.ovals[8] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: mres = 0(1028, 879, 1028) */
		reached[0][879] = 1;
		(trpt+1)->bup.ovals[9] = ((int)mres);
		mres = 0;
#ifdef VAR_RANGES
		logval("mres", ((int)mres));
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 10 */
	case 460: // STATE 881 - master.pml:135 - [((m[j].up&&(crashes<0)))] (899:0:3 - 1)
		IfNotBlocked
		reached[0][881] = 1;
		if (!((((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up)&&(((int)now.crashes)<0))))
			continue;
		/* merge: crashes = (crashes+1)(899, 882, 899) */
		reached[0][882] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.crashes);
		now.crashes = (((int)now.crashes)+1);
#ifdef VAR_RANGES
		logval("crashes", ((int)now.crashes));
#endif
		;
		/* merge: m[j].up = 0(899, 883, 899) */
		reached[0][883] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up);
		now.m[ Index(((P0 *)_this)->j, 3) ].up = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].up", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up));
#endif
		;
		/* merge: mc = 0(899, 884, 899) */
		reached[0][884] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 900, 899) */
		reached[0][900] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 461: // STATE 885 - master.pml:138 - [((mc<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][885] = 1;
		if (!((((int)mc)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 462: // STATE 886 - master.pml:140 - [(nempty(req[((mc*3)+j)]))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][886] = 1;
		if (!((q_len(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])>0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 463: // STATE 887 - master.pml:140 - [req[((mc*3)+j)]?_,_,_,_] (0:0:4 - 1)
		reached[0][887] = 1;
		if (q_len(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]) == 0) continue;

		XX=1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, 0);
		(trpt+1)->bup.ovals[1] = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, 0);
		(trpt+1)->bup.ovals[2] = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, 0);
		(trpt+1)->bup.ovals[3] = qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, 0);
		;
		qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 0, 0);
		qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 1, 0);
		qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 2, 0);
		qrecv(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ], XX-1, 3, 1);
		
#ifdef HAS_CODE
		if (readtrail && gui) {
			char simtmp[32];
			sprintf(simvals, "%d?", now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		strcat(simvals, ",");
		sprintf(simtmp, "%d", ((int)_)); strcat(simvals, simtmp);		}
#endif
		;
		_m = 4; goto P999; /* 0 */
	case 464: // STATE 888 - master.pml:141 - [(empty(req[((mc*3)+j)]))] (899:0:4 - 1)
		IfNotBlocked
		reached[0][888] = 1;
		if (!((q_len(now.req[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ])==0)))
			continue;
		/* merge: goto :b42(899, 889, 899) */
		reached[0][889] = 1;
		;
		/* merge: zval[((mc*3)+j)] = 0(899, 893, 899) */
		reached[0][893] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(899, 894, 899) */
		reached[0][894] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: broken[((mc*3)+j)] = 1(899, 895, 899) */
		reached[0][895] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.broken[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.broken[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("broken[((mc*3)+Master:j)]", ((int)now.broken[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: mc = (mc+1)(899, 896, 899) */
		reached[0][896] = 1;
		(trpt+1)->bup.ovals[3] = ((int)mc);
		mc = (((int)mc)+1);
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 900, 899) */
		reached[0][900] = 1;
		;
		_m = 3; goto P999; /* 6 */
	case 465: // STATE 893 - master.pml:143 - [zval[((mc*3)+j)] = 0] (0:899:4 - 3)
		IfNotBlocked
		reached[0][893] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zval[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zval[((mc*3)+Master:j)]", ((int)now.zval[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: zttl[((mc*3)+j)] = 0(899, 894, 899) */
		reached[0][894] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.zttl[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 0;
#ifdef VAR_RANGES
		logval("zttl[((mc*3)+Master:j)]", ((int)now.zttl[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: broken[((mc*3)+j)] = 1(899, 895, 899) */
		reached[0][895] = 1;
		(trpt+1)->bup.ovals[2] = ((int)now.broken[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]);
		now.broken[ Index(((mc*3)+((P0 *)_this)->j), 6) ] = 1;
#ifdef VAR_RANGES
		logval("broken[((mc*3)+Master:j)]", ((int)now.broken[ Index(((((int)mc)*3)+((int)((P0 *)_this)->j)), 6) ]));
#endif
		;
		/* merge: mc = (mc+1)(899, 896, 899) */
		reached[0][896] = 1;
		(trpt+1)->bup.ovals[3] = ((int)mc);
		mc = (((int)mc)+1);
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 900, 899) */
		reached[0][900] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 466: // STATE 902 - master.pml:148 - [mc = 0] (0:909:1 - 3)
		IfNotBlocked
		reached[0][902] = 1;
		(trpt+1)->bup.oval = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 910, 909) */
		reached[0][910] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 467: // STATE 903 - master.pml:148 - [((mc<=(1-1)))] (909:0:3 - 1)
		IfNotBlocked
		reached[0][903] = 1;
		if (!((((int)mc)<=(1-1))))
			continue;
		/* merge: m[j].val[mc] = 0(909, 904, 909) */
		reached[0][904] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)mc), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].val[ Index(mc, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].val[mc]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].val[ Index(((int)mc), 1) ]));
#endif
		;
		/* merge: m[j].exp[mc] = 0(909, 905, 909) */
		reached[0][905] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)mc), 1) ]);
		now.m[ Index(((P0 *)_this)->j, 3) ].exp[ Index(mc, 1) ] = 0;
#ifdef VAR_RANGES
		logval("m[Master:j].exp[mc]", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].exp[ Index(((int)mc), 1) ]));
#endif
		;
		/* merge: mc = (mc+1)(909, 906, 909) */
		reached[0][906] = 1;
		(trpt+1)->bup.ovals[2] = ((int)mc);
		mc = (((int)mc)+1);
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 910, 909) */
		reached[0][910] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 468: // STATE 912 - redlock.pml:168 - [ck_nh = 0] (0:929:3 - 1)
		IfNotBlocked
		reached[0][912] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(929, 913, 929) */
		reached[0][913] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_i = 0(929, 914, 929) */
		reached[0][914] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 930, 929) */
		reached[0][930] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 469: // STATE 915 - redlock.pml:170 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][915] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 470: // STATE 916 - redlock.pml:172 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (921:0:1 - 1)
		IfNotBlocked
		reached[0][916] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_nh = (ck_nh+1)(0, 917, 921) */
		reached[0][917] = 1;
		(trpt+1)->bup.oval = ((int)ck_nh);
		ck_nh = (((int)ck_nh)+1);
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 471: // STATE 918 - redlock.pml:175 - [((role[ck_i]==0))] (929:0:2 - 1)
		IfNotBlocked
		reached[0][918] = 1;
		if (!((((int)now.role[ Index(((int)ck_i), 2) ])==0)))
			continue;
		/* merge: ck_nw = (ck_nw+1)(929, 919, 929) */
		reached[0][919] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_nw);
		ck_nw = (((int)ck_nw)+1);
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: .(goto)(929, 922, 929) */
		reached[0][922] = 1;
		;
		/* merge: .(goto)(929, 925, 929) */
		reached[0][925] = 1;
		;
		/* merge: ck_i = (ck_i+1)(929, 926, 929) */
		reached[0][926] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 930, 929) */
		reached[0][930] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 472: // STATE 926 - redlock.pml:170 - [ck_i = (ck_i+1)] (0:929:1 - 5)
		IfNotBlocked
		reached[0][926] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 930, 929) */
		reached[0][930] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 473: // STATE 932 - redlock.pml:184 - [ck_ok = ((ck_nw==0)||(ck_nh==1))] (0:984:2 - 3)
		IfNotBlocked
		reached[0][932] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_ok);
		ck_ok = ((((int)ck_nw)==0)||(((int)ck_nh)==1));
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: assert(ck_ok)(984, 934, 984) */
		reached[0][934] = 1;
		spin_assert(((int)ck_ok), "ck_ok", II, tt, t);
		/* merge: ck_i = 0(984, 935, 984) */
		reached[0][935] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 985, 984) */
		reached[0][985] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 474: // STATE 936 - redlock.pml:198 - [((ck_i<=(2-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][936] = 1;
		if (!((((int)ck_i)<=(2-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 475: // STATE 937 - redlock.pml:200 - [(((held[ck_i]!=0)&&(now<until[ck_i])))] (974:0:2 - 1)
		IfNotBlocked
		reached[0][937] = 1;
		if (!(((((int)now.held[ Index(((int)ck_i), 2) ])!=0)&&(((int)now.now)<((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_q = 0(974, 938, 974) */
		reached[0][938] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_j = 0(974, 939, 974) */
		reached[0][939] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 975, 974) */
		reached[0][975] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 476: // STATE 940 - redlock.pml:202 - [((ck_j<=(3-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][940] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 477: // STATE 941 - redlock.pml:146 - [ck_g = 0] (0:952:2 - 1)
		IfNotBlocked
		reached[0][941] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: ck_s = 0(952, 942, 952) */
		reached[0][942] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 953, 952) */
		reached[0][953] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 478: // STATE 943 - redlock.pml:147 - [((ck_s<=(1-1)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][943] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 479: // STATE 944 - redlock.pml:149 - [(((m[ck_j].val[ck_s]==held[ck_i])&&(m[ck_j].exp[ck_s]>=until[ck_i])))] (952:0:2 - 1)
		IfNotBlocked
		reached[0][944] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==((int)now.held[ Index(((int)ck_i), 2) ]))&&(((int)now.m[ Index(((int)ck_j), 3) ].exp[ Index(((int)ck_s), 1) ])>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(952, 945, 952) */
		reached[0][945] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(952, 948, 952) */
		reached[0][948] = 1;
		;
		/* merge: ck_s = (ck_s+1)(952, 949, 952) */
		reached[0][949] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 953, 952) */
		reached[0][953] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 480: // STATE 949 - redlock.pml:147 - [ck_s = (ck_s+1)] (0:952:1 - 3)
		IfNotBlocked
		reached[0][949] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 953, 952) */
		reached[0][953] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 481: // STATE 955 - redlock.pml:155 - [(((m[ck_j].since>0)&&(((m[ck_j].since-1)+(5+(1+1)))>=until[ck_i])))] (963:0:1 - 1)
		IfNotBlocked
		reached[0][955] = 1;
		if (!(((((int)now.m[ Index(((int)ck_j), 3) ].since)>0)&&(((((int)now.m[ Index(((int)ck_j), 3) ].since)-1)+(5+(1+1)))>=((int)now.until[ Index(((int)ck_i), 2) ])))))
			continue;
		/* merge: ck_g = 1(0, 956, 963) */
		reached[0][956] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 959, 963) */
		reached[0][959] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 482: // STATE 960 - redlock.pml:160 - [(!(m[ck_j].up))] (969:0:1 - 1)
		IfNotBlocked
		reached[0][960] = 1;
		if (!( !(((int)now.m[ Index(((int)ck_j), 3) ].up))))
			continue;
		/* merge: ck_g = 1(0, 961, 969) */
		reached[0][961] = 1;
		(trpt+1)->bup.oval = ((int)ck_g);
		ck_g = 1;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: .(goto)(0, 964, 969) */
		reached[0][964] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 483: // STATE 966 - redlock.pml:205 - [(ck_g)] (974:0:2 - 1)
		IfNotBlocked
		reached[0][966] = 1;
		if (!(((int)ck_g)))
			continue;
		/* merge: ck_q = (ck_q+1)(974, 967, 974) */
		reached[0][967] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = (((int)ck_q)+1);
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: .(goto)(974, 970, 974) */
		reached[0][970] = 1;
		;
		/* merge: ck_j = (ck_j+1)(974, 971, 974) */
		reached[0][971] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 975, 974) */
		reached[0][975] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 484: // STATE 971 - redlock.pml:202 - [ck_j = (ck_j+1)] (0:974:1 - 3)
		IfNotBlocked
		reached[0][971] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 975, 974) */
		reached[0][975] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 485: // STATE 977 - redlock.pml:209 - [assert((ck_q>=((3/2)+1)))] (0:984:1 - 3)
		IfNotBlocked
		reached[0][977] = 1;
		spin_assert((((int)ck_q)>=((3/2)+1)), "(ck_q>=((3/2)+1))", II, tt, t);
		/* merge: .(goto)(984, 980, 984) */
		reached[0][980] = 1;
		;
		/* merge: ck_i = (ck_i+1)(984, 981, 984) */
		reached[0][981] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 985, 984) */
		reached[0][985] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 486: // STATE 981 - redlock.pml:198 - [ck_i = (ck_i+1)] (0:984:1 - 3)
		IfNotBlocked
		reached[0][981] = 1;
		(trpt+1)->bup.oval = ((int)ck_i);
		ck_i = (((int)ck_i)+1);
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: .(goto)(0, 985, 984) */
		reached[0][985] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 487: // STATE 987 - redlock.pml:213 - [ck_j = 0] (0:1001:1 - 3)
		IfNotBlocked
		reached[0][987] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 1002, 1001) */
		reached[0][1002] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 488: // STATE 988 - redlock.pml:213 - [((ck_j<=(3-1)))] (995:0:1 - 1)
		IfNotBlocked
		reached[0][988] = 1;
		if (!((((int)ck_j)<=(3-1))))
			continue;
		/* merge: ck_s = 0(0, 989, 995) */
		reached[0][989] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 996, 995) */
		reached[0][996] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 489: // STATE 990 - redlock.pml:214 - [((ck_s<=(1-1)))] (995:0:1 - 1)
		IfNotBlocked
		reached[0][990] = 1;
		if (!((((int)ck_s)<=(1-1))))
			continue;
		/* merge: assert(((m[ck_j].val[ck_s]==0)||!(dead[m[ck_j].val[ck_s]])))(995, 991, 995) */
		reached[0][991] = 1;
		spin_assert(((((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ])==0)|| !(((int)now.dead[ Index(((int)now.m[ Index(((int)ck_j), 3) ].val[ Index(((int)ck_s), 1) ]), 8) ]))), "((m[ck_j].val[ck_s]==0)|| !(dead[m[ck_j].val[ck_s]]))", II, tt, t);
		/* merge: ck_s = (ck_s+1)(995, 992, 995) */
		reached[0][992] = 1;
		(trpt+1)->bup.oval = ((int)ck_s);
		ck_s = (((int)ck_s)+1);
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: .(goto)(0, 996, 995) */
		reached[0][996] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 490: // STATE 998 - redlock.pml:213 - [ck_j = (ck_j+1)] (0:1001:1 - 3)
		IfNotBlocked
		reached[0][998] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 1002, 1001) */
		reached[0][1002] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 491: // STATE 1004 - redlock.pml:218 - [ck_j = 0] (0:1010:1 - 3)
		IfNotBlocked
		reached[0][1004] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 1011, 1010) */
		reached[0][1011] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 492: // STATE 1005 - redlock.pml:218 - [((ck_j<=((2*3)-1)))] (1010:0:1 - 1)
		IfNotBlocked
		reached[0][1005] = 1;
		if (!((((int)ck_j)<=((2*3)-1))))
			continue;
		/* merge: assert(((zval[ck_j]==0)||!(dead[zval[ck_j]])))(1010, 1006, 1010) */
		reached[0][1006] = 1;
		spin_assert(((((int)now.zval[ Index(((int)ck_j), 6) ])==0)|| !(((int)now.dead[ Index(((int)now.zval[ Index(((int)ck_j), 6) ]), 8) ]))), "((zval[ck_j]==0)|| !(dead[zval[ck_j]]))", II, tt, t);
		/* merge: ck_j = (ck_j+1)(1010, 1007, 1010) */
		reached[0][1007] = 1;
		(trpt+1)->bup.oval = ((int)ck_j);
		ck_j = (((int)ck_j)+1);
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: .(goto)(0, 1011, 1010) */
		reached[0][1011] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 493: // STATE 1013 - redlock.pml:221 - [ck_q = 0] (0:1028:9 - 3)
		IfNotBlocked
		reached[0][1013] = 1;
		(trpt+1)->bup.ovals = grab_ints(9);
		(trpt+1)->bup.ovals[0] = ((int)ck_q);
		ck_q = 0;
#ifdef VAR_RANGES
		logval("ck_q", ((int)ck_q));
#endif
		;
		/* merge: ck_i = 0(1028, 1014, 1028) */
		reached[0][1014] = 1;
		(trpt+1)->bup.ovals[1] = ((int)ck_i);
		ck_i = 0;
#ifdef VAR_RANGES
		logval("ck_i", ((int)ck_i));
#endif
		;
		/* merge: ck_j = 0(1028, 1015, 1028) */
		reached[0][1015] = 1;
		(trpt+1)->bup.ovals[2] = ((int)ck_j);
		ck_j = 0;
#ifdef VAR_RANGES
		logval("ck_j", ((int)ck_j));
#endif
		;
		/* merge: ck_s = 0(1028, 1016, 1028) */
		reached[0][1016] = 1;
		(trpt+1)->bup.ovals[3] = ((int)ck_s);
		ck_s = 0;
#ifdef VAR_RANGES
		logval("ck_s", ((int)ck_s));
#endif
		;
		/* merge: ck_nh = 0(1028, 1017, 1028) */
		reached[0][1017] = 1;
		(trpt+1)->bup.ovals[4] = ((int)ck_nh);
		ck_nh = 0;
#ifdef VAR_RANGES
		logval("ck_nh", ((int)ck_nh));
#endif
		;
		/* merge: ck_nw = 0(1028, 1018, 1028) */
		reached[0][1018] = 1;
		(trpt+1)->bup.ovals[5] = ((int)ck_nw);
		ck_nw = 0;
#ifdef VAR_RANGES
		logval("ck_nw", ((int)ck_nw));
#endif
		;
		/* merge: ck_ok = 0(1028, 1019, 1028) */
		reached[0][1019] = 1;
		(trpt+1)->bup.ovals[6] = ((int)ck_ok);
		ck_ok = 0;
#ifdef VAR_RANGES
		logval("ck_ok", ((int)ck_ok));
#endif
		;
		/* merge: ck_g = 0(1028, 1020, 1028) */
		reached[0][1020] = 1;
		(trpt+1)->bup.ovals[7] = ((int)ck_g);
		ck_g = 0;
#ifdef VAR_RANGES
		logval("ck_g", ((int)ck_g));
#endif
		;
		/* merge: mc = 0(1028, 1022, 1028) */
		reached[0][1022] = 1;
		(trpt+1)->bup.ovals[8] = ((int)mc);
		mc = 0;
#ifdef VAR_RANGES
		logval("mc", ((int)mc));
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 494: // STATE 1024 - master.pml:157 - [(!(m[j].up))] (1028:0:2 - 1)
		IfNotBlocked
		reached[0][1024] = 1;
		if (!( !(((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up))))
			continue;
		/* merge: m[j].up = 1(1028, 1025, 1028) */
		reached[0][1025] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up);
		now.m[ Index(((P0 *)_this)->j, 3) ].up = 1;
#ifdef VAR_RANGES
		logval("m[Master:j].up", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].up));
#endif
		;
		/* merge: m[j].since = (now+1)(1028, 1026, 1028) */
		reached[0][1026] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since);
		now.m[ Index(((P0 *)_this)->j, 3) ].since = (((int)now.now)+1);
#ifdef VAR_RANGES
		logval("m[Master:j].since", ((int)now.m[ Index(((int)((P0 *)_this)->j), 3) ].since));
#endif
		;
		/* merge: .(goto)(0, 1029, 1028) */
		reached[0][1029] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 495: // STATE 1031 - master.pml:160 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[0][1031] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */
	case  _T5:	/* np_ */
		if (!((!(trpt->o_pm&4) && !(trpt->tau&128))))
			continue;
		/* else fall through */
	case  _T2:	/* true */
		_m = 3; goto P999;
#undef rand
	}

