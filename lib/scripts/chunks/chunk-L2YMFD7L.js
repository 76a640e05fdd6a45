#!/usr/bin/env node
import {
  ChunkReader,
  LOG_FILE_NAMES,
  SessionLogInputError,
  openLog,
  resolveSessionLog
} from "./chunk-CDZLCCFJ.js";
import {
  CHUNK_ROW_TYPES,
  TOMBSTONE_ACTIONS,
  classifyNode,
  contentOf,
  expandStorageRecord,
  isChunkRowTagged,
  isRecord,
  plainText,
  readReplaceOp,
  readRestore,
  readTombstone,
  recordSeqRange
} from "./chunk-MY2ZCKN5.js";
import {
  OptionError,
  UsageError,
  UsageLineError
} from "./chunk-KEICUTLP.js";
import {
  FrameTable,
  MAX_BLOCK_BYTES,
  counted,
  describeFrameStop,
  frameAt,
  lineAt,
  magicFalsePositives,
  scanZstdFrames,
  walkZstdFrames
} from "./chunk-2BN4JUMU.js";

// node_modules/fzstd/esm/index.mjs
var ab = ArrayBuffer;
var u8 = Uint8Array;
var u16 = Uint16Array;
var i16 = Int16Array;
var i32 = Int32Array;
var slc = function(v, s, e2) {
  if (u8.prototype.slice)
    return u8.prototype.slice.call(v, s, e2);
  if (s == null || s < 0)
    s = 0;
  if (e2 == null || e2 > v.length)
    e2 = v.length;
  var n = new u8(e2 - s);
  n.set(v.subarray(s, e2));
  return n;
};
var fill = function(v, n, s, e2) {
  if (u8.prototype.fill)
    return u8.prototype.fill.call(v, n, s, e2);
  if (s == null || s < 0)
    s = 0;
  if (e2 == null || e2 > v.length)
    e2 = v.length;
  for (; s < e2; ++s)
    v[s] = n;
  return v;
};
var cpw = function(v, t2, s, e2) {
  if (u8.prototype.copyWithin)
    return u8.prototype.copyWithin.call(v, t2, s, e2);
  if (s == null || s < 0)
    s = 0;
  if (e2 == null || e2 > v.length)
    e2 = v.length;
  while (s < e2) {
    v[t2++] = v[s++];
  }
};
var ec = [
  "invalid zstd data",
  "window size too large (>2046MB)",
  "invalid block type",
  "FSE accuracy too high",
  "match distance too far back",
  "unexpected EOF"
];
var err = function(ind, msg, nt) {
  var e2 = new Error(msg || ec[ind]);
  e2.code = ind;
  if (Error.captureStackTrace)
    Error.captureStackTrace(e2, err);
  if (!nt)
    throw e2;
  return e2;
};
var rb = function(d, b, n) {
  var i = 0, o = 0;
  for (; i < n; ++i)
    o |= d[b++] << (i << 3);
  return o;
};
var b4 = function(d, b) {
  return (d[b] | d[b + 1] << 8 | d[b + 2] << 16 | d[b + 3] << 24) >>> 0;
};
var rzfh = function(dat, w) {
  var n3 = dat[0] | dat[1] << 8 | dat[2] << 16;
  if (n3 == 3126568 && dat[3] == 253) {
    var flg = dat[4];
    var ss = flg >> 5 & 1, cc = flg >> 2 & 1, df = flg & 3, fcf = flg >> 6;
    if (flg & 8)
      err(0);
    var bt = 6 - ss;
    var db = df == 3 ? 4 : df;
    var di = rb(dat, bt, db);
    bt += db;
    var fsb = fcf ? 1 << fcf : ss;
    var fss = rb(dat, bt, fsb) + (fcf == 1 && 256);
    var ws = fss;
    if (!ss) {
      var wb = 1 << 10 + (dat[5] >> 3);
      ws = wb + (wb >> 3) * (dat[5] & 7);
    }
    if (ws > 2145386496)
      err(1);
    var buf = new u8((w == 1 ? fss || ws : w ? 0 : ws) + 12);
    buf[0] = 1, buf[4] = 4, buf[8] = 8;
    return {
      b: bt + fsb,
      y: 0,
      l: 0,
      d: di,
      w: w && w != 1 ? w : buf.subarray(12),
      e: ws,
      o: new i32(buf.buffer, 0, 3),
      u: fss,
      c: cc,
      m: Math.min(131072, ws)
    };
  } else if ((n3 >> 4 | dat[3] << 20) == 25481893) {
    return b4(dat, 4) + 8;
  }
  err(0);
};
var msb = function(val) {
  var bits = 0;
  for (; 1 << bits <= val; ++bits)
    ;
  return bits - 1;
};
var rfse = function(dat, bt, mal) {
  var tpos = (bt << 3) + 4;
  var al = (dat[bt] & 15) + 5;
  if (al > mal)
    err(3);
  var sz = 1 << al;
  var probs = sz, sym = -1, re = -1, i = -1, ht = sz;
  var buf = new ab(512 + (sz << 2));
  var freq = new i16(buf, 0, 256);
  var dstate = new u16(buf, 0, 256);
  var nstate = new u16(buf, 512, sz);
  var bb1 = 512 + (sz << 1);
  var syms = new u8(buf, bb1, sz);
  var nbits = new u8(buf, bb1 + sz);
  while (sym < 255 && probs > 0) {
    var bits = msb(probs + 1);
    var cbt = tpos >> 3;
    var msk = (1 << bits + 1) - 1;
    var val = (dat[cbt] | dat[cbt + 1] << 8 | dat[cbt + 2] << 16) >> (tpos & 7) & msk;
    var msk1fb = (1 << bits) - 1;
    var msv = msk - probs - 1;
    var sval = val & msk1fb;
    if (sval < msv)
      tpos += bits, val = sval;
    else {
      tpos += bits + 1;
      if (val > msk1fb)
        val -= msv;
    }
    freq[++sym] = --val;
    if (val == -1) {
      probs += val;
      syms[--ht] = sym;
    } else
      probs -= val;
    if (!val) {
      do {
        var rbt = tpos >> 3;
        re = (dat[rbt] | dat[rbt + 1] << 8) >> (tpos & 7) & 3;
        tpos += 2;
        sym += re;
      } while (re == 3);
    }
  }
  if (sym > 255 || probs)
    err(0);
  var sympos = 0;
  var sstep = (sz >> 1) + (sz >> 3) + 3;
  var smask = sz - 1;
  for (var s = 0; s <= sym; ++s) {
    var sf = freq[s];
    if (sf < 1) {
      dstate[s] = -sf;
      continue;
    }
    for (i = 0; i < sf; ++i) {
      syms[sympos] = s;
      do {
        sympos = sympos + sstep & smask;
      } while (sympos >= ht);
    }
  }
  if (sympos)
    err(0);
  for (i = 0; i < sz; ++i) {
    var ns = dstate[syms[i]]++;
    var nb = nbits[i] = al - msb(ns);
    nstate[i] = (ns << nb) - sz;
  }
  return [tpos + 7 >> 3, {
    b: al,
    s: syms,
    n: nbits,
    t: nstate
  }];
};
var rhu = function(dat, bt) {
  var i = 0, wc = -1;
  var buf = new u8(292), hb = dat[bt];
  var hw = buf.subarray(0, 256);
  var rc = buf.subarray(256, 268);
  var ri = new u16(buf.buffer, 268);
  if (hb < 128) {
    var _a = rfse(dat, bt + 1, 6), ebt = _a[0], fdt = _a[1];
    bt += hb;
    var epos = ebt << 3;
    var lb = dat[bt];
    if (!lb)
      err(0);
    var st1 = 0, st2 = 0, btr1 = fdt.b, btr2 = btr1;
    var fpos = (++bt << 3) - 8 + msb(lb);
    for (; ; ) {
      fpos -= btr1;
      if (fpos < epos)
        break;
      var cbt = fpos >> 3;
      st1 += (dat[cbt] | dat[cbt + 1] << 8) >> (fpos & 7) & (1 << btr1) - 1;
      hw[++wc] = fdt.s[st1];
      fpos -= btr2;
      if (fpos < epos)
        break;
      cbt = fpos >> 3;
      st2 += (dat[cbt] | dat[cbt + 1] << 8) >> (fpos & 7) & (1 << btr2) - 1;
      hw[++wc] = fdt.s[st2];
      btr1 = fdt.n[st1];
      st1 = fdt.t[st1];
      btr2 = fdt.n[st2];
      st2 = fdt.t[st2];
    }
    if (++wc > 255)
      err(0);
  } else {
    wc = hb - 127;
    for (; i < wc; i += 2) {
      var byte = dat[++bt];
      hw[i] = byte >> 4;
      hw[i + 1] = byte & 15;
    }
    ++bt;
  }
  var wes = 0;
  for (i = 0; i < wc; ++i) {
    var wt = hw[i];
    if (wt > 11)
      err(0);
    wes += wt && 1 << wt - 1;
  }
  var mb = msb(wes) + 1;
  var ts = 1 << mb;
  var rem = ts - wes;
  if (rem & rem - 1)
    err(0);
  hw[wc++] = msb(rem) + 1;
  for (i = 0; i < wc; ++i) {
    var wt = hw[i];
    ++rc[hw[i] = wt && mb + 1 - wt];
  }
  var hbuf = new u8(ts << 1);
  var syms = hbuf.subarray(0, ts), nb = hbuf.subarray(ts);
  ri[mb] = 0;
  for (i = mb; i > 0; --i) {
    var pv = ri[i];
    fill(nb, i, pv, ri[i - 1] = pv + rc[i] * (1 << mb - i));
  }
  if (ri[0] != ts)
    err(0);
  for (i = 0; i < wc; ++i) {
    var bits = hw[i];
    if (bits) {
      var code = ri[bits];
      fill(syms, i, code, ri[bits] = code + (1 << mb - bits));
    }
  }
  return [bt, {
    n: nb,
    b: mb,
    s: syms
  }];
};
var dllt = rfse(/* @__PURE__ */ new u8([
  81,
  16,
  99,
  140,
  49,
  198,
  24,
  99,
  12,
  33,
  196,
  24,
  99,
  102,
  102,
  134,
  70,
  146,
  4
]), 0, 6)[1];
var dmlt = rfse(/* @__PURE__ */ new u8([
  33,
  20,
  196,
  24,
  99,
  140,
  33,
  132,
  16,
  66,
  8,
  33,
  132,
  16,
  66,
  8,
  33,
  68,
  68,
  68,
  68,
  68,
  68,
  68,
  68,
  36,
  9
]), 0, 6)[1];
var doct = rfse(/* @__PURE__ */ new u8([
  32,
  132,
  16,
  66,
  102,
  70,
  68,
  68,
  68,
  68,
  36,
  73,
  2
]), 0, 5)[1];
var b2bl = function(b, s) {
  var len = b.length, bl = new i32(len);
  for (var i = 0; i < len; ++i) {
    bl[i] = s;
    s += 1 << b[i];
  }
  return bl;
};
var llb = /* @__PURE__ */ new u8((/* @__PURE__ */ new i32([
  0,
  0,
  0,
  0,
  16843009,
  50528770,
  134678020,
  202050057,
  269422093
])).buffer, 0, 36);
var llbl = /* @__PURE__ */ b2bl(llb, 0);
var mlb = /* @__PURE__ */ new u8((/* @__PURE__ */ new i32([
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  16843009,
  50528770,
  117769220,
  185207048,
  252579084,
  16
])).buffer, 0, 53);
var mlbl = /* @__PURE__ */ b2bl(mlb, 3);
var dhu = function(dat, out2, hu) {
  var len = dat.length, ss = out2.length, lb = dat[len - 1], msk = (1 << hu.b) - 1, eb = -hu.b;
  if (!lb)
    err(0);
  var st = 0, btr = hu.b, pos = (len << 3) - 8 + msb(lb) - btr, i = -1;
  for (; pos > eb && i < ss; ) {
    var cbt = pos >> 3;
    var val = (dat[cbt] | dat[cbt + 1] << 8 | dat[cbt + 2] << 16) >> (pos & 7);
    st = (st << btr | val) & msk;
    out2[++i] = hu.s[st];
    pos -= btr = hu.n[st];
  }
  if (pos != eb || i + 1 != ss)
    err(0);
};
var dhu4 = function(dat, out2, hu) {
  var bt = 6;
  var ss = out2.length, sz1 = ss + 3 >> 2, sz2 = sz1 << 1, sz3 = sz1 + sz2;
  dhu(dat.subarray(bt, bt += dat[0] | dat[1] << 8), out2.subarray(0, sz1), hu);
  dhu(dat.subarray(bt, bt += dat[2] | dat[3] << 8), out2.subarray(sz1, sz2), hu);
  dhu(dat.subarray(bt, bt += dat[4] | dat[5] << 8), out2.subarray(sz2, sz3), hu);
  dhu(dat.subarray(bt), out2.subarray(sz3), hu);
};
var rzb = function(dat, st, out2) {
  var _a;
  var bt = st.b;
  var b0 = dat[bt], btype = b0 >> 1 & 3;
  st.l = b0 & 1;
  var sz = b0 >> 3 | dat[bt + 1] << 5 | dat[bt + 2] << 13;
  var ebt = (bt += 3) + sz;
  if (btype == 1) {
    if (bt >= dat.length)
      return;
    st.b = bt + 1;
    if (out2) {
      fill(out2, dat[bt], st.y, st.y += sz);
      return out2;
    }
    return fill(new u8(sz), dat[bt]);
  }
  if (ebt > dat.length)
    return;
  if (btype == 0) {
    st.b = ebt;
    if (out2) {
      out2.set(dat.subarray(bt, ebt), st.y);
      st.y += sz;
      return out2;
    }
    return slc(dat, bt, ebt);
  }
  if (btype == 2) {
    var b3 = dat[bt], lbt = b3 & 3, sf = b3 >> 2 & 3;
    var lss = b3 >> 4, lcs = 0, s4 = 0;
    if (lbt < 2) {
      if (sf & 1)
        lss |= dat[++bt] << 4 | (sf & 2 && dat[++bt] << 12);
      else
        lss = b3 >> 3;
    } else {
      s4 = sf;
      if (sf < 2)
        lss |= (dat[++bt] & 63) << 4, lcs = dat[bt] >> 6 | dat[++bt] << 2;
      else if (sf == 2)
        lss |= dat[++bt] << 4 | (dat[++bt] & 3) << 12, lcs = dat[bt] >> 2 | dat[++bt] << 6;
      else
        lss |= dat[++bt] << 4 | (dat[++bt] & 63) << 12, lcs = dat[bt] >> 6 | dat[++bt] << 2 | dat[++bt] << 10;
    }
    ++bt;
    var buf = out2 ? out2.subarray(st.y, st.y + st.m) : new u8(st.m);
    var spl = buf.length - lss;
    if (lbt == 0)
      buf.set(dat.subarray(bt, bt += lss), spl);
    else if (lbt == 1)
      fill(buf, dat[bt++], spl);
    else {
      var hu = st.h;
      if (lbt == 2) {
        var hud = rhu(dat, bt);
        lcs += bt - (bt = hud[0]);
        st.h = hu = hud[1];
      } else if (!hu)
        err(0);
      (s4 ? dhu4 : dhu)(dat.subarray(bt, bt += lcs), buf.subarray(spl), hu);
    }
    var ns = dat[bt++];
    if (ns) {
      if (ns == 255)
        ns = (dat[bt++] | dat[bt++] << 8) + 32512;
      else if (ns > 127)
        ns = ns - 128 << 8 | dat[bt++];
      var scm = dat[bt++];
      if (scm & 3)
        err(0);
      var dts = [dmlt, doct, dllt];
      for (var i = 2; i > -1; --i) {
        var md = scm >> (i << 1) + 2 & 3;
        if (md == 1) {
          var rbuf = new u8([0, 0, dat[bt++]]);
          dts[i] = {
            s: rbuf.subarray(2, 3),
            n: rbuf.subarray(0, 1),
            t: new u16(rbuf.buffer, 0, 1),
            b: 0
          };
        } else if (md == 2) {
          _a = rfse(dat, bt, 9 - (i & 1)), bt = _a[0], dts[i] = _a[1];
        } else if (md == 3) {
          if (!st.t)
            err(0);
          dts[i] = st.t[i];
        }
      }
      var _b = st.t = dts, mlt = _b[0], oct = _b[1], llt = _b[2];
      var lb = dat[ebt - 1];
      if (!lb)
        err(0);
      var spos = (ebt << 3) - 8 + msb(lb) - llt.b, cbt = spos >> 3, oubt = 0;
      var lst = (dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << llt.b) - 1;
      cbt = (spos -= oct.b) >> 3;
      var ost = (dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << oct.b) - 1;
      cbt = (spos -= mlt.b) >> 3;
      var mst = (dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << mlt.b) - 1;
      for (++ns; --ns; ) {
        var llc = llt.s[lst];
        var lbtr = llt.n[lst];
        var mlc = mlt.s[mst];
        var mbtr = mlt.n[mst];
        var ofc = oct.s[ost];
        var obtr = oct.n[ost];
        cbt = (spos -= ofc) >> 3;
        var ofp = 1 << ofc;
        var off = ofp + ((dat[cbt] | dat[cbt + 1] << 8 | dat[cbt + 2] << 16 | dat[cbt + 3] << 24) >>> (spos & 7) & ofp - 1);
        cbt = (spos -= mlb[mlc]) >> 3;
        var ml = mlbl[mlc] + ((dat[cbt] | dat[cbt + 1] << 8 | dat[cbt + 2] << 16) >> (spos & 7) & (1 << mlb[mlc]) - 1);
        cbt = (spos -= llb[llc]) >> 3;
        var ll = llbl[llc] + ((dat[cbt] | dat[cbt + 1] << 8 | dat[cbt + 2] << 16) >> (spos & 7) & (1 << llb[llc]) - 1);
        cbt = (spos -= lbtr) >> 3;
        lst = llt.t[lst] + ((dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << lbtr) - 1);
        cbt = (spos -= mbtr) >> 3;
        mst = mlt.t[mst] + ((dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << mbtr) - 1);
        cbt = (spos -= obtr) >> 3;
        ost = oct.t[ost] + ((dat[cbt] | dat[cbt + 1] << 8) >> (spos & 7) & (1 << obtr) - 1);
        if (off > 3) {
          st.o[2] = st.o[1];
          st.o[1] = st.o[0];
          st.o[0] = off -= 3;
        } else {
          var idx = off - (ll != 0);
          if (idx) {
            off = idx == 3 ? st.o[0] - 1 : st.o[idx];
            if (idx > 1)
              st.o[2] = st.o[1];
            st.o[1] = st.o[0];
            st.o[0] = off;
          } else
            off = st.o[0];
        }
        for (var i = 0; i < ll; ++i) {
          buf[oubt + i] = buf[spl + i];
        }
        oubt += ll, spl += ll;
        var stin = oubt - off;
        if (stin < 0) {
          var len = -stin;
          var bs = st.e + stin;
          if (len > ml)
            len = ml;
          for (var i = 0; i < len; ++i) {
            buf[oubt + i] = st.w[bs + i];
          }
          oubt += len, ml -= len, stin = 0;
        }
        for (var i = 0; i < ml; ++i) {
          buf[oubt + i] = buf[stin + i];
        }
        oubt += ml;
      }
      if (oubt != spl) {
        while (spl < buf.length) {
          buf[oubt++] = buf[spl++];
        }
      } else
        oubt = buf.length;
      if (out2)
        st.y += oubt;
      else
        buf = slc(buf, 0, oubt);
    } else if (out2) {
      st.y += lss;
      if (spl) {
        for (var i = 0; i < lss; ++i) {
          buf[i] = buf[spl + i];
        }
      }
    } else if (spl)
      buf = slc(buf, spl);
    st.b = ebt;
    return buf;
  }
  err(2);
};
var cct = function(bufs, ol) {
  if (bufs.length == 1)
    return bufs[0];
  var buf = new u8(ol);
  for (var i = 0, b = 0; i < bufs.length; ++i) {
    var chk = bufs[i];
    buf.set(chk, b);
    b += chk.length;
  }
  return buf;
};
function decompress(dat, buf) {
  var bufs = [], nb = +!buf;
  var bt = 0, ol = 0;
  for (; dat.length; ) {
    var st = rzfh(dat, nb || buf);
    if (typeof st == "object") {
      if (nb) {
        buf = null;
        if (st.w.length == st.u) {
          bufs.push(buf = st.w);
          ol += st.u;
        }
      } else {
        bufs.push(buf);
        st.e = 0;
      }
      for (; !st.l; ) {
        var blk = rzb(dat, st, buf);
        if (!blk)
          err(5);
        if (buf)
          st.e = st.y;
        else {
          bufs.push(blk);
          ol += blk.length;
          cpw(st.w, 0, blk.length);
          st.w.set(blk, st.w.length - blk.length);
        }
      }
      bt = st.b + st.c * 4;
    } else
      bt = st;
    dat = dat.subarray(bt);
  }
  return cct(bufs, ol);
}
var Decompress = /* @__PURE__ */ (function() {
  function Decompress2(ondata) {
    this.ondata = ondata;
    this.c = [];
    this.l = 0;
    this.z = 0;
  }
  Decompress2.prototype.push = function(chunk, final) {
    if (typeof this.s == "number") {
      var sub = Math.min(chunk.length, this.s);
      chunk = chunk.subarray(sub);
      this.s -= sub;
    }
    var sl = chunk.length;
    var ncs = sl + this.l;
    if (!this.s) {
      if (final) {
        if (!ncs) {
          this.ondata(new u8(0), true);
          return;
        }
        if (ncs < 5)
          err(5);
      } else if (ncs < 18) {
        this.c.push(chunk);
        this.l = ncs;
        return;
      }
      if (this.l) {
        this.c.push(chunk);
        chunk = cct(this.c, ncs);
        this.c = [];
        this.l = 0;
      }
      if (typeof (this.s = rzfh(chunk)) == "number")
        return this.push(chunk, final);
    }
    if (typeof this.s != "number") {
      if (ncs < (this.z || 3)) {
        if (final)
          err(5);
        this.c.push(chunk);
        this.l = ncs;
        return;
      }
      if (this.l) {
        this.c.push(chunk);
        chunk = cct(this.c, ncs);
        this.c = [];
        this.l = 0;
      }
      if (!this.z && ncs < (this.z = chunk[this.s.b] & 2 ? 4 : 3 + (chunk[this.s.b] >> 3 | chunk[this.s.b + 1] << 5 | chunk[this.s.b + 2] << 13))) {
        if (final)
          err(5);
        this.c.push(chunk);
        this.l = ncs;
        return;
      } else
        this.z = 0;
      for (; ; ) {
        var blk = rzb(chunk, this.s);
        if (!blk) {
          if (final)
            err(5);
          var adc = chunk.subarray(this.s.b);
          this.s.b = 0;
          this.c.push(adc), this.l += adc.length;
          return;
        } else {
          this.ondata(blk, false);
          cpw(this.s.w, 0, blk.length);
          this.s.w.set(blk, this.s.w.length - blk.length);
        }
        if (this.s.l) {
          var rest = chunk.subarray(this.s.b);
          this.s = this.s.c * 4;
          this.push(rest, final);
          return;
        }
      }
    } else if (final)
      err(5);
  };
  return Decompress2;
})();

// node_modules/xxhash-wasm/esm/xxhash-wasm.js
var t = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 48, 8, 96, 3, 127, 127, 127, 1, 127, 96, 3, 127, 127, 127, 0, 96, 2, 127, 127, 0, 96, 1, 127, 1, 127, 96, 3, 127, 127, 126, 1, 126, 96, 3, 126, 127, 127, 1, 126, 96, 2, 127, 126, 0, 96, 1, 127, 1, 126, 3, 11, 10, 0, 0, 2, 1, 3, 4, 5, 6, 1, 7, 5, 3, 1, 0, 1, 7, 85, 9, 3, 109, 101, 109, 2, 0, 5, 120, 120, 104, 51, 50, 0, 0, 6, 105, 110, 105, 116, 51, 50, 0, 2, 8, 117, 112, 100, 97, 116, 101, 51, 50, 0, 3, 8, 100, 105, 103, 101, 115, 116, 51, 50, 0, 4, 5, 120, 120, 104, 54, 52, 0, 5, 6, 105, 110, 105, 116, 54, 52, 0, 7, 8, 117, 112, 100, 97, 116, 101, 54, 52, 0, 8, 8, 100, 105, 103, 101, 115, 116, 54, 52, 0, 9, 10, 251, 22, 10, 242, 1, 1, 4, 127, 32, 0, 32, 1, 106, 33, 3, 32, 1, 65, 16, 79, 4, 127, 32, 3, 65, 16, 107, 33, 6, 32, 2, 65, 168, 136, 141, 161, 2, 106, 33, 3, 32, 2, 65, 137, 235, 208, 208, 7, 107, 33, 4, 32, 2, 65, 207, 140, 162, 142, 6, 106, 33, 5, 3, 64, 32, 3, 32, 0, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 3, 32, 4, 32, 0, 65, 4, 106, 34, 0, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 4, 32, 2, 32, 0, 65, 4, 106, 34, 0, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 2, 32, 5, 32, 0, 65, 4, 106, 34, 0, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 5, 32, 6, 32, 0, 65, 4, 106, 34, 0, 79, 13, 0, 11, 32, 2, 65, 12, 119, 32, 5, 65, 18, 119, 106, 32, 4, 65, 7, 119, 106, 32, 3, 65, 1, 119, 106, 5, 32, 2, 65, 177, 207, 217, 178, 1, 106, 11, 32, 1, 106, 32, 0, 32, 1, 65, 15, 113, 16, 1, 11, 146, 1, 0, 32, 1, 32, 2, 106, 33, 2, 3, 64, 32, 1, 65, 4, 106, 32, 2, 75, 69, 4, 64, 32, 0, 32, 1, 40, 2, 0, 65, 189, 220, 202, 149, 124, 108, 106, 65, 17, 119, 65, 175, 214, 211, 190, 2, 108, 33, 0, 32, 1, 65, 4, 106, 33, 1, 12, 1, 11, 11, 3, 64, 32, 1, 32, 2, 79, 69, 4, 64, 32, 0, 32, 1, 45, 0, 0, 65, 177, 207, 217, 178, 1, 108, 106, 65, 11, 119, 65, 177, 243, 221, 241, 121, 108, 33, 0, 32, 1, 65, 1, 106, 33, 1, 12, 1, 11, 11, 32, 0, 32, 0, 65, 15, 118, 115, 65, 247, 148, 175, 175, 120, 108, 34, 0, 65, 13, 118, 32, 0, 115, 65, 189, 220, 202, 149, 124, 108, 34, 0, 65, 16, 118, 32, 0, 115, 11, 63, 0, 32, 0, 65, 8, 106, 32, 1, 65, 168, 136, 141, 161, 2, 106, 54, 2, 0, 32, 0, 65, 12, 106, 32, 1, 65, 137, 235, 208, 208, 7, 107, 54, 2, 0, 32, 0, 65, 16, 106, 32, 1, 54, 2, 0, 32, 0, 65, 20, 106, 32, 1, 65, 207, 140, 162, 142, 6, 106, 54, 2, 0, 11, 195, 4, 1, 6, 127, 32, 1, 32, 2, 106, 33, 6, 32, 0, 65, 24, 106, 33, 4, 32, 0, 65, 40, 106, 40, 2, 0, 33, 3, 32, 0, 32, 0, 40, 2, 0, 32, 2, 106, 54, 2, 0, 32, 0, 65, 4, 106, 34, 5, 32, 5, 40, 2, 0, 32, 2, 65, 16, 79, 32, 0, 40, 2, 0, 65, 16, 79, 114, 114, 54, 2, 0, 32, 2, 32, 3, 106, 65, 16, 73, 4, 64, 32, 3, 32, 4, 106, 32, 1, 32, 2, 252, 10, 0, 0, 32, 0, 65, 40, 106, 32, 2, 32, 3, 106, 54, 2, 0, 15, 11, 32, 3, 4, 64, 32, 3, 32, 4, 106, 32, 1, 65, 16, 32, 3, 107, 34, 2, 252, 10, 0, 0, 32, 0, 65, 8, 106, 34, 3, 32, 3, 40, 2, 0, 32, 4, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 54, 2, 0, 32, 0, 65, 12, 106, 34, 3, 32, 3, 40, 2, 0, 32, 4, 65, 4, 106, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 54, 2, 0, 32, 0, 65, 16, 106, 34, 3, 32, 3, 40, 2, 0, 32, 4, 65, 8, 106, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 54, 2, 0, 32, 0, 65, 20, 106, 34, 3, 32, 3, 40, 2, 0, 32, 4, 65, 12, 106, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 54, 2, 0, 32, 0, 65, 40, 106, 65, 0, 54, 2, 0, 32, 1, 32, 2, 106, 33, 1, 11, 32, 1, 32, 6, 65, 16, 107, 77, 4, 64, 32, 6, 65, 16, 107, 33, 8, 32, 0, 65, 8, 106, 40, 2, 0, 33, 2, 32, 0, 65, 12, 106, 40, 2, 0, 33, 3, 32, 0, 65, 16, 106, 40, 2, 0, 33, 5, 32, 0, 65, 20, 106, 40, 2, 0, 33, 7, 3, 64, 32, 2, 32, 1, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 2, 32, 3, 32, 1, 65, 4, 106, 34, 1, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 3, 32, 5, 32, 1, 65, 4, 106, 34, 1, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 5, 32, 7, 32, 1, 65, 4, 106, 34, 1, 40, 2, 0, 65, 247, 148, 175, 175, 120, 108, 106, 65, 13, 119, 65, 177, 243, 221, 241, 121, 108, 33, 7, 32, 8, 32, 1, 65, 4, 106, 34, 1, 79, 13, 0, 11, 32, 0, 65, 8, 106, 32, 2, 54, 2, 0, 32, 0, 65, 12, 106, 32, 3, 54, 2, 0, 32, 0, 65, 16, 106, 32, 5, 54, 2, 0, 32, 0, 65, 20, 106, 32, 7, 54, 2, 0, 11, 32, 1, 32, 6, 73, 4, 64, 32, 4, 32, 1, 32, 6, 32, 1, 107, 34, 1, 252, 10, 0, 0, 32, 0, 65, 40, 106, 32, 1, 54, 2, 0, 11, 11, 97, 1, 1, 127, 32, 0, 65, 16, 106, 40, 2, 0, 33, 1, 32, 0, 65, 4, 106, 40, 2, 0, 4, 127, 32, 1, 65, 12, 119, 32, 0, 65, 20, 106, 40, 2, 0, 65, 18, 119, 106, 32, 0, 65, 12, 106, 40, 2, 0, 65, 7, 119, 106, 32, 0, 65, 8, 106, 40, 2, 0, 65, 1, 119, 106, 5, 32, 1, 65, 177, 207, 217, 178, 1, 106, 11, 32, 0, 40, 2, 0, 106, 32, 0, 65, 24, 106, 32, 0, 65, 40, 106, 40, 2, 0, 16, 1, 11, 255, 3, 2, 3, 126, 1, 127, 32, 0, 32, 1, 106, 33, 6, 32, 1, 65, 32, 79, 4, 126, 32, 6, 65, 32, 107, 33, 6, 32, 2, 66, 214, 235, 130, 238, 234, 253, 137, 245, 224, 0, 124, 33, 3, 32, 2, 66, 177, 169, 172, 193, 173, 184, 212, 166, 61, 125, 33, 4, 32, 2, 66, 249, 234, 208, 208, 231, 201, 161, 228, 225, 0, 124, 33, 5, 3, 64, 32, 3, 32, 0, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 3, 32, 4, 32, 0, 65, 8, 106, 34, 0, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 4, 32, 2, 32, 0, 65, 8, 106, 34, 0, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 2, 32, 5, 32, 0, 65, 8, 106, 34, 0, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 5, 32, 6, 32, 0, 65, 8, 106, 34, 0, 79, 13, 0, 11, 32, 2, 66, 12, 137, 32, 5, 66, 18, 137, 124, 32, 4, 66, 7, 137, 124, 32, 3, 66, 1, 137, 124, 32, 3, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 4, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 2, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 5, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 5, 32, 2, 66, 197, 207, 217, 178, 241, 229, 186, 234, 39, 124, 11, 32, 1, 173, 124, 32, 0, 32, 1, 65, 31, 113, 16, 6, 11, 134, 2, 0, 32, 1, 32, 2, 106, 33, 2, 3, 64, 32, 2, 32, 1, 65, 8, 106, 79, 4, 64, 32, 1, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 32, 0, 133, 66, 27, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 33, 0, 32, 1, 65, 8, 106, 33, 1, 12, 1, 11, 11, 32, 1, 65, 4, 106, 32, 2, 77, 4, 64, 32, 0, 32, 1, 53, 2, 0, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 23, 137, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 249, 243, 221, 241, 153, 246, 153, 171, 22, 124, 33, 0, 32, 1, 65, 4, 106, 33, 1, 11, 3, 64, 32, 1, 32, 2, 73, 4, 64, 32, 0, 32, 1, 49, 0, 0, 66, 197, 207, 217, 178, 241, 229, 186, 234, 39, 126, 133, 66, 11, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 0, 32, 1, 65, 1, 106, 33, 1, 12, 1, 11, 11, 32, 0, 32, 0, 66, 33, 136, 133, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 34, 0, 32, 0, 66, 29, 136, 133, 66, 249, 243, 221, 241, 153, 246, 153, 171, 22, 126, 34, 0, 32, 0, 66, 32, 136, 133, 11, 77, 0, 32, 0, 65, 8, 106, 32, 1, 66, 214, 235, 130, 238, 234, 253, 137, 245, 224, 0, 124, 55, 3, 0, 32, 0, 65, 16, 106, 32, 1, 66, 177, 169, 172, 193, 173, 184, 212, 166, 61, 125, 55, 3, 0, 32, 0, 65, 24, 106, 32, 1, 55, 3, 0, 32, 0, 65, 32, 106, 32, 1, 66, 249, 234, 208, 208, 231, 201, 161, 228, 225, 0, 124, 55, 3, 0, 11, 244, 4, 2, 3, 127, 4, 126, 32, 1, 32, 2, 106, 33, 5, 32, 0, 65, 40, 106, 33, 4, 32, 0, 65, 200, 0, 106, 40, 2, 0, 33, 3, 32, 0, 32, 0, 41, 3, 0, 32, 2, 173, 124, 55, 3, 0, 32, 2, 32, 3, 106, 65, 32, 73, 4, 64, 32, 3, 32, 4, 106, 32, 1, 32, 2, 252, 10, 0, 0, 32, 0, 65, 200, 0, 106, 32, 2, 32, 3, 106, 54, 2, 0, 15, 11, 32, 3, 4, 64, 32, 3, 32, 4, 106, 32, 1, 65, 32, 32, 3, 107, 34, 2, 252, 10, 0, 0, 32, 0, 65, 8, 106, 34, 3, 32, 3, 41, 3, 0, 32, 4, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 55, 3, 0, 32, 0, 65, 16, 106, 34, 3, 32, 3, 41, 3, 0, 32, 4, 65, 8, 106, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 55, 3, 0, 32, 0, 65, 24, 106, 34, 3, 32, 3, 41, 3, 0, 32, 4, 65, 16, 106, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 55, 3, 0, 32, 0, 65, 32, 106, 34, 3, 32, 3, 41, 3, 0, 32, 4, 65, 24, 106, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 55, 3, 0, 32, 0, 65, 200, 0, 106, 65, 0, 54, 2, 0, 32, 1, 32, 2, 106, 33, 1, 11, 32, 1, 65, 32, 106, 32, 5, 77, 4, 64, 32, 5, 65, 32, 107, 33, 2, 32, 0, 65, 8, 106, 41, 3, 0, 33, 6, 32, 0, 65, 16, 106, 41, 3, 0, 33, 7, 32, 0, 65, 24, 106, 41, 3, 0, 33, 8, 32, 0, 65, 32, 106, 41, 3, 0, 33, 9, 3, 64, 32, 6, 32, 1, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 6, 32, 7, 32, 1, 65, 8, 106, 34, 1, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 7, 32, 8, 32, 1, 65, 8, 106, 34, 1, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 8, 32, 9, 32, 1, 65, 8, 106, 34, 1, 41, 3, 0, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 124, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 33, 9, 32, 2, 32, 1, 65, 8, 106, 34, 1, 79, 13, 0, 11, 32, 0, 65, 8, 106, 32, 6, 55, 3, 0, 32, 0, 65, 16, 106, 32, 7, 55, 3, 0, 32, 0, 65, 24, 106, 32, 8, 55, 3, 0, 32, 0, 65, 32, 106, 32, 9, 55, 3, 0, 11, 32, 1, 32, 5, 73, 4, 64, 32, 4, 32, 1, 32, 5, 32, 1, 107, 34, 1, 252, 10, 0, 0, 32, 0, 65, 200, 0, 106, 32, 1, 54, 2, 0, 11, 11, 188, 2, 1, 5, 126, 32, 0, 65, 24, 106, 41, 3, 0, 33, 1, 32, 0, 41, 3, 0, 34, 2, 66, 32, 90, 4, 126, 32, 0, 65, 8, 106, 41, 3, 0, 34, 3, 66, 1, 137, 32, 0, 65, 16, 106, 41, 3, 0, 34, 4, 66, 7, 137, 124, 32, 1, 66, 12, 137, 32, 0, 65, 32, 106, 41, 3, 0, 34, 5, 66, 18, 137, 124, 124, 32, 3, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 4, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 1, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 32, 5, 66, 207, 214, 211, 190, 210, 199, 171, 217, 66, 126, 66, 31, 137, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 133, 66, 135, 149, 175, 175, 152, 182, 222, 155, 158, 127, 126, 66, 157, 163, 181, 234, 131, 177, 141, 138, 250, 0, 125, 5, 32, 1, 66, 197, 207, 217, 178, 241, 229, 186, 234, 39, 124, 11, 32, 2, 124, 32, 0, 65, 40, 106, 32, 2, 66, 31, 131, 167, 16, 6, 11]);
async function e() {
  return (function(t2) {
    const { exports: { mem: e2, xxh32: n, xxh64: r, init32: i, update32: a, digest32: o, init64: s, update64: u, digest64: c } } = t2;
    let h = new Uint8Array(e2.buffer);
    function g(t3, n2) {
      if (e2.buffer.byteLength < t3 + n2) {
        const r2 = Math.ceil((t3 + n2 - e2.buffer.byteLength) / 65536);
        e2.grow(r2), h = new Uint8Array(e2.buffer);
      }
    }
    function f(t3, e3, n2, r2, i2, a2) {
      g(t3);
      const o2 = new Uint8Array(t3);
      return h.set(o2), n2(0, e3), o2.set(h.subarray(0, t3)), { update(e4) {
        let n3;
        return h.set(o2), "string" == typeof e4 ? (g(3 * e4.length, t3), n3 = w.encodeInto(e4, h.subarray(t3)).written) : (g(e4.byteLength, t3), h.set(e4, t3), n3 = e4.byteLength), r2(0, t3, n3), o2.set(h.subarray(0, t3)), this;
      }, digest: () => (h.set(o2), a2(i2(0))) };
    }
    function y(t3) {
      return t3 >>> 0;
    }
    const b = 2n ** 64n - 1n;
    function d(t3) {
      return t3 & b;
    }
    const w = new TextEncoder(), l = 0, p = 0n;
    function x(t3, e3 = l) {
      return g(3 * t3.length, 0), y(n(0, w.encodeInto(t3, h).written, e3));
    }
    function L(t3, e3 = p) {
      return g(3 * t3.length, 0), d(r(0, w.encodeInto(t3, h).written, e3));
    }
    return { h32: x, h32ToString: (t3, e3 = l) => x(t3, e3).toString(16).padStart(8, "0"), h32Raw: (t3, e3 = l) => (g(t3.byteLength, 0), h.set(t3), y(n(0, t3.byteLength, e3))), create32: (t3 = l) => f(48, t3, i, a, o, y), h64: L, h64ToString: (t3, e3 = p) => L(t3, e3).toString(16).padStart(16, "0"), h64Raw: (t3, e3 = p) => (g(t3.byteLength, 0), h.set(t3), d(r(0, t3.byteLength, e3))), create64: (t3 = p) => f(88, t3, s, u, c, d) };
  })((await WebAssembly.instantiate(t)).instance);
}

// src/log/frame-decoder.ts
var DECODER_NAMES = ["zlib", "zlib-oneshot", "zstd-cli", "fzstd"];
var DecoderUnavailableError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "DecoderUnavailableError";
  }
};
var PlaintextRun = class {
  /**
   * @param initialBytes - starting capacity in bytes.
   * @param allocate - makes the buffers (Node's `Buffer.allocUnsafe` gives them Buffer's
   *   native `indexOf`, which the line split uses; the default is a plain `Uint8Array`).
   */
  constructor(initialBytes, allocate = (bytes) => new Uint8Array(bytes)) {
    this.allocate = allocate;
    this.bytes = allocate(initialBytes);
  }
  /** Bytes `[0, length)` hold the plaintext appended so far. */
  bytes;
  length = 0;
  /**
   * Make room: at least double the capacity, keeping `bytes[0, keep)`.
   * @param keep - bytes to carry over (those written so far, possibly beyond `length`).
   */
  grow(keep) {
    const next = this.allocate(Math.max(this.bytes.length * 2, 64 * 1024));
    next.set(this.bytes.subarray(0, keep));
    this.bytes = next;
  }
};
function storedChecksum(frame) {
  if (frame.length < 9) return null;
  if ((frame[4] & 4) === 0) return null;
  const at = frame.length - 4;
  return (frame[at] | frame[at + 1] << 8 | frame[at + 2] << 16 | frame[at + 3] << 24) >>> 0;
}
function hex32(value) {
  return "0x" + value.toString(16).padStart(8, "0");
}
var FzstdOutput = class extends Uint8Array {
  [Symbol.toPrimitive]() {
    return Number.NaN;
  }
};
var BLOCK_BYTES = MAX_BLOCK_BYTES;
function frameFacts(frame) {
  const scanned = scanZstdFrames(frame).frames[0];
  if (scanned === void 0 || scanned.kind !== "zstd") return null;
  return { contentSize: scanned.contentSize, blocks: scanned.blocks };
}
async function createFzstdDecoder(options = {}) {
  const { h64Raw } = await e();
  const reuse = options.reuseWindow ?? true;
  let window = new FzstdOutput(BLOCK_BYTES * 2);
  let dirty = [];
  const clean = () => {
    for (let i = 0; i < dirty.length; i += 2) window.fill(0, dirty[i], dirty[i + 1]);
    dirty = [];
  };
  let closed = false;
  const checksumOf = (plaintext) => Number(h64Raw(plaintext, 0n) & 0xffffffffn);
  const verify = (plaintext, stored) => {
    if (stored !== null) {
      const computed = checksumOf(plaintext);
      if (computed !== stored) throw new Error(`content checksum mismatch: stored ${hex32(stored)}, computed ${hex32(computed)}`);
    }
    return plaintext;
  };
  const decodeReused = (frame, stored) => {
    const facts = frameFacts(frame);
    if (facts === null) return null;
    clean();
    if (facts.contentSize !== null) {
      if (window.length < facts.contentSize) window = new FzstdOutput(facts.contentSize);
      const output2 = new FzstdOutput(window.buffer, 0, facts.contentSize);
      decompress(frame, output2);
      return verify(output2, stored);
    }
    if (stored === null) return null;
    const span = facts.blocks * BLOCK_BYTES + 1;
    if (window.length < span) window = new FzstdOutput(span);
    dirty = [0, span];
    decompress(frame, new FzstdOutput(window.buffer, 0, span));
    const length = window.indexOf(0);
    if (length === -1) return null;
    const output = window.subarray(0, length);
    if (checksumOf(output) !== stored) return null;
    if (facts.blocks === 1) dirty = [0, length, Math.max(length, BLOCK_BYTES - length), BLOCK_BYTES];
    return output;
  };
  return {
    name: "fzstd",
    verifiesChecksum: true,
    decode(source, start = 0, end = source.length) {
      if (closed) throw new Error("cannot decode with a closed fzstd frame decoder");
      const frame = source.subarray(start, end);
      const stored = storedChecksum(frame);
      if (reuse) {
        let reused = null;
        try {
          reused = decodeReused(frame, stored);
        } catch {
          dirty = [0, window.length];
        }
        if (reused !== null) return reused;
      }
      return verify(decompress(frame), stored);
    },
    close() {
      closed = true;
    }
  };
}

// scripts/support/option-values.ts
var OPTION_VALUES = {
  decoder: `a decoder name (one of auto, ${DECODER_NAMES.join(", ")})`,
  hours: "a positive number of hours",
  limit: "a positive whole number of sessions",
  port: "a port number 0–65535",
  tombstone: "a seq (a non-negative integer)"
};
var OptionValueError = class extends UsageError {
  /**
   * @param name - the option, without the dashes (`hours`).
   * @param value - what was given, or `null` when the value was left out.
   */
  constructor(name, value) {
    super(`--${name} expects ${OPTION_VALUES[name] ?? "a value"}, got ${value === null ? "nothing" : JSON.stringify(value)}`);
    this.name = "OptionValueError";
  }
};
function decoderOption(value) {
  if (value === void 0 || value === "auto") return "auto";
  if (DECODER_NAMES.includes(value)) return value;
  throw new OptionValueError("decoder", value);
}
function hoursOption(value) {
  if (value === void 0) return void 0;
  const hours = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN;
  if (!(hours > 0 && Number.isFinite(hours))) throw new OptionValueError("hours", value);
  return hours;
}
function limitOption(value) {
  if (value === void 0) return void 0;
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(limit > 0 && Number.isSafeInteger(limit))) throw new OptionValueError("limit", value);
  return limit;
}

// scripts/support/command.ts
var EXIT = {
  /** Nothing wrong found. */
  ok: 0,
  /** The tool ran and found a problem (torn tail, corrupt frame, unreadable file in a scan, …). */
  problem: 1,
  /** Bad usage, or the input could not be read at all. */
  usage: 2
};
function runCommand(command, invocation, argv) {
  runMain(command.usage(invocation), () => command.run(argv, invocation), invocation);
}
function runMain(usage, main, invocation) {
  process.stdout.on("error", (error) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok);
    throw error;
  });
  main().then((code) => {
    process.exitCode = code;
  }).catch((error) => {
    if (error instanceof OptionError) {
      process.stderr.write(`${invocation === void 0 ? "" : `${invocation}: `}${error.message}; see --help
`);
    } else if (error instanceof OptionValueError || error instanceof UsageLineError) {
      process.stderr.write(`${error.message}
`);
    } else if (error instanceof UsageError) {
      process.stderr.write(`${error.message}

${usage}`);
    } else if (error instanceof SessionLogInputError || error instanceof DecoderUnavailableError) {
      process.stderr.write(`${error.message}
`);
    } else {
      process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}
`);
    }
    process.exitCode = EXIT.usage;
  });
}

// scripts/support/output.ts
var OUTPUT_CHUNK_BYTES = 1024 * 1024;
var ChunkedOutput = class {
  buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
  used = 0;
  ready = [];
  /** Whether a value was already written in {@link addJsonLines} mode (for the commas). */
  valuesWritten = false;
  /** Append bytes. */
  add(bytes) {
    let from = 0;
    while (from < bytes.length) {
      const n = Math.min(bytes.length - from, this.buffer.length - this.used);
      this.buffer.set(bytes.subarray(from, from + n), this.used);
      this.used += n;
      from += n;
      if (this.used === this.buffer.length) this.rotate();
    }
  }
  /** Append text as UTF-8. */
  addText(text) {
    if (text.length * 3 <= this.buffer.length - this.used) this.used += this.buffer.write(text, this.used);
    else this.add(Buffer.from(text));
  }
  /**
   * Append whole lines (each ending in a line break) as members of a JSON array: each line is one
   * JSON value, written with a comma before it unless it is the first.
   */
  addJsonLines(lines) {
    if (lines.length === 0) return;
    if (this.valuesWritten) this.addText(",");
    this.valuesWritten = true;
    const start = this.used;
    const body = lines.subarray(0, lines.length - 1);
    if (body.length <= this.buffer.length - this.used) {
      this.buffer.set(body, this.used);
      this.used += body.length;
      for (let i = this.buffer.indexOf(10, start); i !== -1 && i < this.used; i = this.buffer.indexOf(10, i + 1)) this.buffer[i] = 44;
    } else {
      const copy = Buffer.from(body);
      for (let i = copy.indexOf(10); i !== -1; i = copy.indexOf(10, i + 1)) copy[i] = 44;
      this.add(copy);
    }
  }
  /** Append one JSON value as a member of the array {@link addJsonLines} writes. */
  addJsonValue(text) {
    this.addText(this.valuesWritten ? "," + text : text);
    this.valuesWritten = true;
  }
  rotate() {
    this.ready.push(this.buffer.subarray(0, this.used));
    this.buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
    this.used = 0;
  }
  /** Write the full chunks, waiting while stdout is congested. */
  async drain() {
    while (this.ready.length > 0) await outBytes(this.ready.shift());
  }
  /** Write everything collected. */
  async end() {
    if (this.used > 0) this.rotate();
    await this.drain();
  }
};
async function outBytes(bytes) {
  if (!process.stdout.write(bytes)) await new Promise((resolve2) => process.stdout.once("drain", resolve2));
}
async function out(text) {
  if (!process.stdout.write(text)) await new Promise((resolve2) => process.stdout.once("drain", resolve2));
}

// src/log/frame-decoder-node.ts
import { spawn, spawnSync } from "node:child_process";
import * as zlib from "node:zlib";
var OUTPUT_CHUNK_BYTES2 = 1024 * 1024;
var nodeZlib = zlib;
function hasZlibZstd() {
  return typeof nodeZlib.createZstdDecompress === "function" && typeof nodeZlib.zstdDecompressSync === "function";
}
function openZstdStream() {
  if (!hasZlibZstd()) return null;
  const stream = nodeZlib.createZstdDecompress({ chunkSize: OUTPUT_CHUNK_BYTES2 });
  const errorKey = Reflect.ownKeys(stream).find((key) => typeof key === "symbol" && key.description === "kError");
  const handle = stream._handle;
  const usable = handle !== null && typeof handle === "object" && typeof handle.writeSync === "function" && stream._writeState instanceof Uint32Array && stream._writeState.length >= 2 && typeof stream._defaultFlushFlag === "number" && errorKey !== void 0 && stream[errorKey] === null;
  if (!usable) {
    stream.close();
    return null;
  }
  stream.on("error", () => {
  });
  return { stream, errorKey };
}
function createZlibDecoder() {
  let opened = openZstdStream();
  if (opened === null) return null;
  const output = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES2);
  let closed = false;
  const decodeOnce = (frame, start, end) => {
    const { stream, errorKey } = opened;
    const handle = stream._handle;
    let inputOffset = start;
    let inputRemaining = end - start;
    let chunks = null;
    let total = 0;
    for (; ; ) {
      handle.writeSync(stream._defaultFlushFlag, frame, inputOffset, inputRemaining, output, 0, output.length);
      const failure = stream[errorKey];
      if (failure !== null && failure !== void 0) throw failure instanceof Error ? failure : new Error(String(failure));
      const outputLeft = stream._writeState[0];
      const inputLeft = stream._writeState[1];
      const produced = output.length - outputLeft;
      total += produced;
      if (outputLeft !== 0) {
        if (inputLeft !== 0) throw new Error(`zstd frame decoder left ${counted(inputLeft, "byte")} of the frame unread`);
        if (chunks === null) return output.subarray(0, produced);
        chunks.push(Buffer.from(output.subarray(0, produced)));
        return Buffer.concat(chunks, total);
      }
      ;
      (chunks ??= []).push(Buffer.from(output));
      inputOffset += inputRemaining - inputLeft;
      inputRemaining = inputLeft;
    }
  };
  const appendOnce = (run, frame, start, end) => {
    const { stream, errorKey } = opened;
    const handle = stream._handle;
    let inputOffset = start;
    let inputRemaining = end - start;
    let at = run.length;
    for (; ; ) {
      const room = run.bytes.length - at;
      handle.writeSync(stream._defaultFlushFlag, frame, inputOffset, inputRemaining, run.bytes, at, room);
      const failure = stream[errorKey];
      if (failure !== null && failure !== void 0) throw failure instanceof Error ? failure : new Error(String(failure));
      const outputLeft = stream._writeState[0];
      const inputLeft = stream._writeState[1];
      at += room - outputLeft;
      if (outputLeft !== 0) {
        if (inputLeft !== 0) throw new Error(`zstd frame decoder left ${counted(inputLeft, "byte")} of the frame unread`);
        run.length = at;
        return;
      }
      run.grow(at);
      inputOffset += inputRemaining - inputLeft;
      inputRemaining = inputLeft;
    }
  };
  const context = () => {
    if (closed) throw new Error("cannot decode with a closed zlib frame decoder");
    if (opened === null) {
      opened = openZstdStream();
      if (opened === null) throw new Error("node:zlib zstd stream could not be reopened");
    }
  };
  const discard = () => {
    opened?.stream.close();
    opened = null;
  };
  return {
    name: "zlib",
    verifiesChecksum: true,
    decode(source, start = 0, end = source.length) {
      context();
      try {
        return decodeOnce(source, start, end);
      } catch (error) {
        discard();
        throw error;
      }
    },
    appendTo(run, source, start, end) {
      context();
      try {
        appendOnce(run, source, start, end);
      } catch (error) {
        discard();
        throw error;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      opened?.stream.close();
      opened = null;
    }
  };
}
function createZlibOneshotDecoder() {
  if (!hasZlibZstd()) return null;
  let closed = false;
  return {
    name: "zlib-oneshot",
    verifiesChecksum: true,
    decode(source, start = 0, end = source.length) {
      if (closed) throw new Error("cannot decode with a closed zlib-oneshot frame decoder");
      return nodeZlib.zstdDecompressSync(source.subarray(start, end));
    },
    close() {
      closed = true;
    }
  };
}
var cliProbe;
function findZstdCli(command = "zstd") {
  if (cliProbe !== void 0 && command === "zstd") return cliProbe;
  const probe = (extra) => spawnSync(command, [...extra, "-V"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  let found = null;
  const plain = probe([]);
  if (plain.status === 0) {
    const version = /v(\d+\.\d+\.\d+)/.exec(plain.stdout + plain.stderr)?.[1] ?? "unknown";
    const noAsync = probe(["--no-asyncio"]).status === 0;
    found = { command, args: ["-dcq", ...noAsync ? ["--no-asyncio"] : []], version };
  }
  if (command === "zstd") cliProbe = found;
  return found;
}
async function* decodeWithZstdCli(cli, frames) {
  const child = spawn(cli.command, [...cli.args], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text) => {
    stderr += text;
  });
  const exited = new Promise((resolve2, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve2(code));
  });
  child.stdin.on("error", () => {
  });
  const feeding = (async () => {
    for await (const frame of frames) {
      if (!child.stdin.write(frame)) await new Promise((resolve2) => child.stdin.once("drain", resolve2));
      if (child.stdin.destroyed) break;
    }
    child.stdin.end();
  })();
  try {
    for await (const chunk of child.stdout) yield chunk;
    await feeding;
    const code = await exited;
    if (code !== 0) throw new Error(`${cli.command} exited with status ${code}: ${stderr.trim() || "no message"}`);
  } finally {
    if (child.exitCode === null) child.kill();
  }
}
async function openFrameDecoder(name) {
  if (name === "auto") return createZlibDecoder() ?? createZlibOneshotDecoder() ?? await createFzstdDecoder();
  if (name === "fzstd") return createFzstdDecoder();
  const decoder = name === "zlib" ? createZlibDecoder() : createZlibOneshotDecoder();
  if (decoder === null) throw new DecoderUnavailableError(`decoder "${name}" is not available: node:zlib has no zstd in Node ${process.version} (it needs 22.15 or later)`);
  return decoder;
}
function autoDecoderName(needsFrames) {
  if (hasZlibZstd()) return "zlib";
  if (!needsFrames && findZstdCli() !== null) return "zstd-cli";
  return "fzstd";
}

// src/log/torn-tail.ts
import * as zlib2 from "node:zlib";
function tailAt(tail) {
  if (tail.stop !== void 0) return frameAt(tail.stop.index, tail.start);
  return tail.line !== void 0 ? lineAt(tail.line, null, tail.start) : `byte ${tail.start}`;
}
function recoverableLines(torn) {
  let plaintext = new Uint8Array(0);
  const z = zlib2;
  try {
    if (typeof z.zstdDecompressSync === "function" && z.constants.ZSTD_e_flush !== void 0) {
      plaintext = z.zstdDecompressSync(torn, { finishFlush: z.constants.ZSTD_e_flush });
    } else {
      const parts = [];
      const stream = new Decompress((data) => {
        parts.push(data);
      });
      stream.push(torn, false);
      plaintext = Buffer.concat(parts);
    }
  } catch {
    return 0;
  }
  let lines = 0;
  for (let i = plaintext.indexOf(10); i !== -1; i = plaintext.indexOf(10, i + 1)) lines++;
  return lines;
}

// src/log/frame-batches.ts
var FrameBatches = class {
  /**
   * @param chunks - the file, read in chunks that may reuse one buffer.
   * @param magicScan - look for the magic number inside frames.
   * @param reuse - `true` to walk every batch into one frame table (a batch is then only valid
   *   until the next is requested, like the chunks of a reusing chunk reader); `false` for a
   *   table per batch.
   */
  constructor(chunks, magicScan, reuse = true) {
    this.chunks = chunks;
    this.magicScan = magicScan;
    this.reuse = reuse;
  }
  /** Complete frames found. */
  frames = 0;
  /** Bytes covered by complete frames. */
  consumed = 0;
  /** Why the walk ended: `end`, `incomplete` (a torn tail) or `corrupt`. */
  stop = { kind: "end" };
  /** Bytes from the start of the incomplete final frame to the end of the file, when there is one. */
  tailBytes = null;
  /** With `magicScan`: offsets of the magic number that are not frame starts. */
  falsePositives = [];
  /** The table every batch reuses (with `reuse`). */
  shared = new FrameTable();
  /**
   * Complete frames in file order, one batch per chunk read. A batch's bytes and table stay
   * valid until the next batch is requested, unless made with `reuse: false` (and a chunk reader
   * with `reuse: false`).
   */
  async *batches() {
    let carry = new Uint8Array(0);
    let carryAt = 0;
    for (; ; ) {
      const bytes = await this.chunks.next(carry);
      if (bytes.length === carry.length) {
        carry = bytes;
        break;
      }
      const table = this.reuse ? this.shared : new FrameTable();
      table.reset(this.frames);
      const scan = walkZstdFrames(bytes, table, carryAt);
      if (this.magicScan && table.count > 0) {
        const starts = new Set(table.start.subarray(0, table.count));
        this.falsePositives.push(...magicFalsePositives(bytes.subarray(0, scan.next - carryAt), starts, carryAt));
      }
      if (table.count > 0) {
        this.frames += table.count;
        this.consumed = scan.next;
        yield { table, bytes: bytes.subarray(0, scan.next - carryAt), at: carryAt };
      }
      if (scan.stop.kind === "corrupt") {
        this.stop = scan.stop;
        return;
      }
      carry = bytes.subarray(scan.next - carryAt);
      carryAt = scan.next;
    }
    if (carry.length > 0) {
      const table = new FrameTable();
      table.reset(this.frames);
      this.stop = walkZstdFrames(carry, table, carryAt).stop;
      this.tailBytes = new Uint8Array(carry);
      if (this.magicScan) this.falsePositives.push(...magicFalsePositives(carry, /* @__PURE__ */ new Set([carryAt]), carryAt));
    }
  }
};
var RUN_BYTES = 1024 * 1024;
var FrameRun = class {
  plaintext;
  count = 0;
  ends = new Float64Array(1024);
  frames = new Float64Array(1024);
  offsets = new Float64Array(1024);
  /** @param allocate - makes the plaintext buffer; see {@link PlaintextRun}. */
  constructor(allocate) {
    this.plaintext = new PlaintextRun(RUN_BYTES + 256 * 1024, allocate);
  }
  /** Note the frame whose plaintext was just appended. */
  add(frame, offset) {
    if (this.count === this.ends.length) {
      const widen = (old) => {
        const next = new Float64Array(old.length * 2);
        next.set(old);
        return next;
      };
      this.ends = widen(this.ends);
      this.frames = widen(this.frames);
      this.offsets = widen(this.offsets);
    }
    const k = this.count++;
    this.ends[k] = this.plaintext.length;
    this.frames[k] = frame;
    this.offsets[k] = offset;
  }
  /** Hand the frames appended so far to the reader and start an empty run. */
  flush(reader) {
    if (this.count > 0) reader.pushFrames(this.plaintext.bytes, this);
    this.count = 0;
    this.plaintext.length = 0;
  }
};
function decodeBatch(batch, decoder, sink, run) {
  if (run !== void 0 && decoder.appendTo !== void 0 && sink.onFrame === void 0) {
    decodeBatchIntoRun(batch, decoder, sink, run);
    return;
  }
  const { reader, tally, onFrame } = sink;
  const { table, bytes, at } = batch;
  const { start, end, skippable, checksum } = table;
  const verifies = decoder.verifiesChecksum;
  for (let i = 0; i < table.count; i++) {
    const firstLine = reader.lineCount + 1;
    if (skippable[i] === 1) {
      onFrame?.({ frame: table.frame(i), decodedBytes: 0, firstLine, lastLine: firstLine - 1 });
      continue;
    }
    const index = table.firstIndex + i;
    const byte = start[i];
    let plaintext;
    try {
      plaintext = decoder.decode(bytes, byte - at, end[i] - at);
    } catch (error) {
      const message = error.message;
      reader.report({ kind: "frame-failed", at: { line: firstLine, frame: index, byte }, message: `${frameAt(index, byte)} failed to decode: ${message}` });
      onFrame?.({ frame: table.frame(i), decodedBytes: null, firstLine, lastLine: firstLine - 1, error: message });
      continue;
    }
    if (verifies && checksum[i] >= 0) tally.checked++;
    tally.decodedBytes += plaintext.length;
    reader.push(plaintext, index, byte, true);
    onFrame?.({ frame: table.frame(i), decodedBytes: plaintext.length, firstLine, lastLine: reader.lineCount });
  }
}
function decodeBatchIntoRun(batch, decoder, sink, run) {
  const { reader, tally } = sink;
  const { table, bytes, at } = batch;
  const { start, end, skippable, checksum } = table;
  const plaintext = run.plaintext;
  const verifies = decoder.verifiesChecksum;
  for (let i = 0; i < table.count; i++) {
    if (skippable[i] === 1) continue;
    const index = table.firstIndex + i;
    const byte = start[i];
    const before = plaintext.length;
    try {
      decoder.appendTo(plaintext, bytes, byte - at, end[i] - at);
    } catch (error) {
      run.flush(reader);
      const message = error.message;
      reader.report({ kind: "frame-failed", at: { line: reader.lineCount + 1, frame: index, byte }, message: `${frameAt(index, byte)} failed to decode: ${message}` });
      continue;
    }
    if (verifies && checksum[i] >= 0) tally.checked++;
    tally.decodedBytes += plaintext.length - before;
    run.add(index, byte);
    if (plaintext.length >= RUN_BYTES) run.flush(reader);
  }
  run.flush(reader);
}

// src/log/log-frames.ts
var MAX_PROBLEMS = 100;
var LF = 10;
var QUOTE = 34;
var BACKSLASH = 92;
var utf8Decoder = new TextDecoder();
function utf8(bytes, start, end) {
  return utf8Decoder.decode(bytes.subarray(start, end));
}
var TypeNames = class {
  byHash = /* @__PURE__ */ new Map();
  /** The name in `bytes[start, end)` (ASCII with no escapes, as the prefix check guarantees). */
  read(bytes, start, end) {
    let hash = end - start;
    for (let i = start; i < end; i++) hash = Math.imul(hash, 31) + bytes[i] | 0;
    const known = this.byHash.get(hash);
    if (known !== void 0 && known.length === end - start) {
      let same = true;
      for (let i = 0; i < known.length; i++) {
        if (known.charCodeAt(i) !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const name = utf8(bytes, start, end);
    if (known === void 0) this.byHash.set(hash, name);
    return name;
  }
};
var LogRecordReader = class {
  options;
  parseAll;
  parseSome;
  onRecord;
  /** Every prefixed line's type is needed (a predicate or record callback reads it), not only a packed row's. */
  typeAlways;
  types = new TypeNames();
  headerValue = null;
  headerText = null;
  line = 0;
  events = 0;
  firstSeq = -1;
  lastSeq = -1;
  /** Next seq the log must continue with, or `null` after an unparsed packed row (resynchronised on the next line). */
  expected = 0;
  // An unparsed packed row waiting for the next line's seq, kept in fields (no object per row).
  // `rowBytes[rowStart, rowEnd)` is a view into the pushed bytes while their push runs
  // (`rowOwned` false) and is copied only when the row is still pending at the end of that push.
  rowPending = false;
  rowSeq0 = 0;
  rowLine = 0;
  rowFrame = null;
  rowByte = 0;
  rowBytes = new Uint8Array(0);
  rowStart = 0;
  rowEnd = 0;
  rowOwned = false;
  problems = [];
  dropped = 0;
  /** Bytes of a line begun in an earlier push, or `null`. */
  carry = null;
  carryAt = null;
  // Prefix of the line last read by `readPrefix`; its type is read from the bytes on demand.
  prefixTypeStart = 0;
  prefixTypeEnd = 0;
  prefixSeq = 0;
  prefixRow = false;
  constructor(options = {}) {
    this.options = options;
    this.parseAll = options.parse === void 0 || options.parse === true;
    this.parseSome = typeof options.parse === "function" ? options.parse : null;
    this.onRecord = options.onRecord;
    this.typeAlways = this.parseSome !== null || this.onRecord !== void 0;
  }
  /**
   * Record a problem found outside the text (a frame that failed to decode, corrupt structure).
   * @param problem - the problem; kept up to {@link MAX_PROBLEMS}.
   */
  report(problem) {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(problem);
    else this.dropped++;
  }
  /** The header, once line 1 was read and is a session header; otherwise `null`. */
  get header() {
    return this.headerValue;
  }
  /** Line 1 as stored, once read and valid; otherwise `null`. */
  get headerLine() {
    return this.headerText;
  }
  /** Number of lines read so far, header included. */
  get lineCount() {
    return this.line;
  }
  /**
   * Feed decoded bytes.
   * @param bytes - UTF-8 bytes; normally ending with a line break. Not kept after the call
   *   (a partial last line is copied).
   * @param frame - frame index the bytes came from, or `null` for a plain log.
   * @param byte - file byte offset of that frame or chunk.
   * @param frameEnd - `true` when `bytes` is a whole zstd frame: a missing final line break is
   *   then reported (`frame-not-line-aligned`) and the partial line carried into the next frame.
   */
  push(bytes, frame, byte, frameEnd = false) {
    this.breakAt = bytes.indexOf(LF);
    this.pushRange(bytes, 0, bytes.length, frame, byte, frameEnd);
    this.ownRow();
  }
  /**
   * Feed the plaintext of several whole zstd frames held one after the other in one buffer:
   * the same as a {@link push} of each frame with `frameEnd` (the same records, problems and
   * positions), in one pass over the lines.
   * @param bytes - the frames' plaintext, back to back; not kept after the call.
   * @param run - `count` frames: `ends[k]` is the offset in `bytes` just past frame k's
   *   plaintext (frame k starts where frame k − 1 ends, frame 0 at 0), `frames[k]` its frame
   *   index and `offsets[k]` its file byte offset.
   */
  pushFrames(bytes, run) {
    const { count, ends, frames, offsets } = run;
    this.breakAt = bytes.indexOf(LF);
    let start = 0;
    for (let k = 0; k < count; k++) {
      const end = ends[k];
      this.pushRange(bytes, start, end, frames[k], offsets[k], true);
      start = end;
    }
    this.ownRow();
  }
  /** First line break at or after the current position in the bytes being pushed, or -1 when none is left. */
  breakAt = -1;
  /** Next line break in `bytes[from, end)`, or -1; keeps {@link breakAt} for the next range. */
  nextBreak(bytes, from, end) {
    let nl = this.breakAt;
    if (nl !== -1 && nl < from) nl = this.breakAt = bytes.indexOf(LF, from);
    return nl !== -1 && nl < end ? nl : -1;
  }
  /** One frame or chunk, `bytes[start, end)`, as {@link push} describes it. */
  pushRange(bytes, start, end, frame, byte, frameEnd) {
    const onLines = this.options.onLines;
    let from = start;
    if (this.carry !== null) {
      const nl = this.nextBreak(bytes, from, end);
      if (nl === -1) {
        this.carry = concatBytes(this.carry, bytes.subarray(from, end));
        return;
      }
      const line = concatBytes(this.carry, bytes.subarray(from, nl + 1));
      const at = this.carryAt ?? { line: this.line + 1, frame, byte };
      this.carry = null;
      this.carryAt = null;
      if (this.take(line, 0, line.length - 1, at.frame, at.byte)) onLines?.(line);
      from = nl + 1;
    }
    let run = from;
    for (let nl = this.nextBreak(bytes, from, end); nl !== -1; nl = this.nextBreak(bytes, from, end)) {
      if (!this.take(bytes, from, nl, frame, lineByte(frame, byte, from - start))) {
        if (onLines !== void 0 && from > run) onLines(bytes.subarray(run, from));
        run = nl + 1;
      }
      from = nl + 1;
    }
    if (onLines !== void 0 && from > run) onLines(bytes.subarray(run, from));
    if (from < end) {
      this.carry = new Uint8Array(bytes.subarray(from, end));
      this.carryAt = { line: this.line + 1, frame, byte: lineByte(frame, byte, from - start) };
      if (frameEnd && frame !== null) {
        this.report({
          kind: "frame-not-line-aligned",
          at: this.carryAt,
          message: `${frameAt(frame, byte)} ends inside line ${this.line + 1}; a complete frame must end on a line break`
        });
      }
    }
  }
  /** At the end of a push, a pending packed row still viewing the pushed bytes gets its own copy. */
  ownRow() {
    if (this.rowPending && !this.rowOwned) {
      this.rowBytes = new Uint8Array(this.rowBytes.subarray(this.rowStart, this.rowEnd));
      this.rowStart = 0;
      this.rowEnd = this.rowBytes.length;
      this.rowOwned = true;
    }
  }
  /**
   * Finish reading: resolves a trailing packed row's seq range and returns the totals. A partial
   * record still pending is not read (the caller reports it as a torn tail).
   */
  finish() {
    this.flushRow();
    const problems = [...this.problems];
    if (this.dropped > 0) {
      problems.push({ kind: "unparsable-line", at: { line: this.line, frame: null, byte: 0 }, message: `${counted(this.dropped, "further problem")} not listed` });
    }
    if (this.headerValue === null && this.line === 0 && problems.length === 0) {
      problems.push({ kind: "bad-header", at: { line: 1, frame: null, byte: 0 }, message: "the log holds no complete header line" });
    }
    return { header: this.headerValue, headerText: this.headerText, lines: this.line, events: this.events, firstSeq: this.firstSeq, lastSeq: this.lastSeq, problems };
  }
  /**
   * Read the envelope prefix `{"type":"<type>","seq":<n>,` or `{"type":"<tag>","seq0":<n>,` of
   * the line `bytes[start, end)` into the `prefix…` fields.
   * @returns `false` when the line does not start that way (it is then parsed to find out).
   */
  readPrefix(bytes, start, end) {
    if (end - start < 18) return false;
    if (bytes[start] !== 123 || bytes[start + 1] !== QUOTE || bytes[start + 2] !== 116 || bytes[start + 3] !== 121 || bytes[start + 4] !== 112) return false;
    if (bytes[start + 5] !== 101 || bytes[start + 6] !== QUOTE || bytes[start + 7] !== 58 || bytes[start + 8] !== QUOTE) return false;
    const typeStart = start + 9;
    let i = typeStart;
    for (; i < end; i++) {
      const c = bytes[i];
      if (c === QUOTE) break;
      if (c === BACKSLASH) return false;
    }
    if (i === typeStart || end - i < 10) return false;
    const typeEnd = i;
    if (bytes[i + 1] !== 44 || bytes[i + 2] !== QUOTE || bytes[i + 3] !== 115 || bytes[i + 4] !== 101 || bytes[i + 5] !== 113) return false;
    i += 6;
    let row = false;
    if (bytes[i] === 48) {
      row = true;
      i++;
    }
    if (bytes[i] !== QUOTE || bytes[i + 1] !== 58) return false;
    i += 2;
    const digits = i;
    let seq = 0;
    for (; i < end; i++) {
      const c = bytes[i] - 48;
      if (c < 0 || c > 9) break;
      seq = seq * 10 + c;
    }
    if (i === digits || i === end || bytes[i] !== 44) return false;
    this.prefixTypeStart = typeStart;
    this.prefixTypeEnd = typeEnd;
    this.prefixSeq = seq;
    this.prefixRow = row;
    return true;
  }
  /**
   * Take the line `bytes[start, end)` (without its line break).
   * @returns `true` when the line is kept (the header line, or a record handed to `onRecord`).
   */
  take(bytes, start, end, frame, byte) {
    this.line++;
    if (this.line === 1) {
      this.takeHeader(utf8(bytes, start, end), { line: 1, frame, byte });
      return true;
    }
    let text = null;
    if (this.readPrefix(bytes, start, end)) {
      const onRecord = this.onRecord;
      const type = this.typeAlways || this.prefixRow ? this.types.read(bytes, this.prefixTypeStart, this.prefixTypeEnd) : "";
      let parse = this.parseAll;
      if (this.parseSome !== null) {
        text = utf8(bytes, start, end);
        parse = this.parseSome(type, text);
      }
      if (!parse) {
        const seq = this.prefixSeq;
        this.settleRow(seq);
        this.checkSeq(seq, frame, byte);
        if (this.prefixRow && CHUNK_ROW_TYPES.includes(type)) {
          this.rowPending = true;
          this.rowSeq0 = seq;
          this.rowLine = this.line;
          this.rowFrame = frame;
          this.rowByte = byte;
          this.rowBytes = bytes;
          this.rowStart = start;
          this.rowEnd = end;
          this.rowOwned = false;
          this.events++;
          this.lastSeq = seq;
          this.expected = null;
        } else {
          this.advance(seq, seq);
        }
        if (onRecord !== void 0) onRecord({ at: { line: this.line, frame, byte }, text: text ?? utf8(bytes, start, end), type, seq });
        return true;
      }
    }
    text ??= utf8(bytes, start, end);
    const at = { line: this.line, frame, byte };
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.flushRow();
      this.report({ kind: "unparsable-line", at, message: `${where(at)} is not valid JSON: ${error.message}` });
      this.expected = null;
      return false;
    }
    const range = recordSeqRange(value);
    const recordType = isRecord(value) && typeof value.type === "string" ? value.type : "?";
    let events;
    if (this.options.expand || isChunkRowTagged(value)) {
      try {
        events = expandStorageRecord(value);
      } catch (error) {
        this.flushRow();
        this.report({ kind: "malformed-row", at, message: `${where(at)}: ${error.message}` });
        this.expected = null;
        return false;
      }
    }
    if (range === null) {
      this.flushRow();
      this.report({ kind: "unparsable-line", at, message: `${where(at)} has no event seq` });
      this.expected = null;
      return false;
    }
    this.settleRow(range[0]);
    this.checkSeq(range[0], frame, byte);
    this.advance(range[0], range[1]);
    this.options.onRecord?.({ at, text, type: recordType, seq: range[0], value, ...this.options.expand && events ? { events } : {} });
    return true;
  }
  takeHeader(text, at) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.report({ kind: "bad-header", at, message: `${where(at)} (the header) is not valid JSON: ${error.message}` });
      this.options.onHeader?.(null, text);
      return;
    }
    if (!isRecord(value) || value.type !== "session" || typeof value.id !== "string" || typeof value.version !== "number" || typeof value.createdAt !== "number") {
      this.report({ kind: "bad-header", at, message: 'line 1 is not a session header ({"type":"session","version","id","createdAt",…})' });
      this.options.onHeader?.(null, text);
      return;
    }
    this.headerValue = value;
    this.headerText = text;
    this.options.onHeader?.(this.headerValue, text);
  }
  /** An unparsed packed row ends just before the line that follows it at `nextSeq`. */
  settleRow(nextSeq) {
    if (!this.rowPending) return;
    this.rowPending = false;
    if (nextSeq > this.rowSeq0) {
      this.events += nextSeq - this.rowSeq0 - 1;
      this.lastSeq = nextSeq - 1;
      this.expected = nextSeq;
    } else {
      this.expected = this.rowSeq0 + 1;
    }
  }
  /** An unparsed packed row with no usable successor (end of log, damaged next line) is parsed for its seq range. */
  flushRow() {
    if (!this.rowPending) return;
    this.rowPending = false;
    let value;
    try {
      value = JSON.parse(utf8(this.rowBytes, this.rowStart, this.rowEnd));
    } catch (error) {
      const at = { line: this.rowLine, frame: this.rowFrame, byte: this.rowByte };
      this.report({ kind: "unparsable-line", at, message: `${where(at)} is not valid JSON: ${error.message}` });
      return;
    }
    const range = recordSeqRange(value);
    if (range === null) return;
    this.events += range[1] - range[0];
    this.lastSeq = range[1];
    this.expected = range[1] + 1;
  }
  checkSeq(first, frame, byte) {
    if (this.firstSeq === -1) this.firstSeq = first;
    if (this.expected !== null && first !== this.expected) {
      const at = { line: this.line, frame, byte };
      this.report({
        kind: "seq-gap",
        at,
        expected: this.expected,
        got: first,
        message: `${where(at)} continues the log at seq ${first}; expected ${this.expected}`
      });
    }
  }
  advance(first, last) {
    this.events += last - first + 1;
    this.lastSeq = last;
    this.expected = last + 1;
  }
};
function concatBytes(a, b) {
  const out2 = new Uint8Array(a.length + b.length);
  out2.set(a, 0);
  out2.set(b, a.length);
  return out2;
}
function lineByte(frame, byte, offset) {
  return frame === null ? byte + offset : byte;
}
function where(at) {
  return lineAt(at.line, at.frame, at.byte);
}

// src/log/zstd-cli-batches.ts
async function decodeBatchesWithZstdCli(batches, cli, sink, options) {
  let fallback = null;
  const settle = async (batch, decoded) => {
    const output = await decoded;
    if (!(output instanceof Error)) {
      pushDecoded({ frames: batch.table.frames(), bytes: batch.bytes, at: batch.at }, output, sink);
    } else if (options.onRefusal === "fzstd") {
      fallback ??= await openFrameDecoder("fzstd");
      decodeBatch(batch, fallback, sink);
    } else {
      await bisect({ frames: batch.table.frames(), bytes: batch.bytes, at: batch.at }, output, cli, sink);
    }
    await options.flush?.();
  };
  let pending = null;
  try {
    for await (const batch of batches) {
      const job = { batch, output: collectZstdCli(cli, batch.bytes) };
      if (pending !== null) await settle(pending.batch, pending.output);
      pending = job;
    }
    if (pending !== null) await settle(pending.batch, pending.output);
  } finally {
    ;
    fallback?.close();
  }
  return fallback !== null;
}
function pushDecoded(batch, output, { reader, tally }) {
  tally.decodedBytes += output.length;
  for (const frame of batch.frames) if (frame.kind === "zstd" && frame.checksum !== null) tally.checked++;
  const last = batch.frames.at(-1);
  const lastBreak = output.lastIndexOf(10);
  if (lastBreak !== -1) reader.push(output.subarray(0, lastBreak + 1), null, batch.frames[0].start);
  if (lastBreak + 1 < output.length) reader.push(output.subarray(lastBreak + 1), last.index, last.start, true);
}
async function bisect(batch, failure, cli, sink) {
  if (batch.frames.length === 1) {
    const frame = batch.frames[0];
    sink.reader.report({
      kind: "frame-failed",
      at: { line: sink.reader.lineCount + 1, frame: frame.index, byte: frame.start },
      message: `${frameAt(frame.index, frame.start)} failed to decode: ${failure.message}`
    });
    return;
  }
  const middle = batch.frames.length >> 1;
  for (const frames of [batch.frames.slice(0, middle), batch.frames.slice(middle)]) {
    const at = frames[0].start;
    const part = { frames, bytes: batch.bytes.subarray(at - batch.at, frames.at(-1).end - batch.at), at };
    const output = await collectZstdCli(cli, part.bytes);
    if (output instanceof Error) await bisect(part, output, cli, sink);
    else pushDecoded(part, output, sink);
  }
}
async function collectZstdCli(cli, bytes) {
  const parts = [];
  try {
    for await (const chunk of decodeWithZstdCli(cli, [bytes])) parts.push(chunk);
    return Buffer.concat(parts);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

// src/log/session-log.ts
var DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
async function readSessionLog(file, options = {}) {
  const reader = new LogRecordReader({ parse: options.parse, expand: options.expand, onRecord: options.onRecord, onHeader: options.onHeader, onLines: options.onLines });
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const handle = await openLog(file.path);
  try {
    if (file.format === "jsonl") return await readPlain(file, handle, reader, chunkBytes, options);
    return await readZstd(file, handle, reader, chunkBytes, options);
  } finally {
    await handle.close();
  }
}
async function readPlain(file, handle, reader, chunkBytes, options) {
  const chunks = new ChunkReader(handle, file.size, chunkBytes, true, options.onProgress);
  let carry = new Uint8Array(0);
  let consumed = 0;
  for (; ; ) {
    const bytes = await chunks.next(carry);
    if (bytes.length === carry.length) {
      carry = bytes;
      break;
    }
    const lastBreak = bytes.lastIndexOf(10);
    if (lastBreak !== -1) {
      reader.push(bytes.subarray(0, lastBreak + 1), null, consumed);
      await options.flush?.();
      consumed += lastBreak + 1;
    }
    carry = bytes.subarray(lastBreak + 1);
  }
  const totals = reader.finish();
  const tail = carry.length > 0 ? {
    start: consumed,
    bytes: carry.length,
    line: totals.lines + 1,
    description: `the last record, ${lineAt(totals.lines + 1, null, consumed)}, has no line break: ${counted(carry.length, "byte")} of an unfinished write`,
    recoverableLines: 0
  } : null;
  return {
    file,
    decoder: null,
    fallbackDecoder: null,
    header: totals.header,
    headerText: totals.headerText,
    lines: totals.lines,
    events: totals.events,
    firstSeq: totals.firstSeq,
    lastSeq: totals.lastSeq,
    frames: 0,
    checkedFrames: 0,
    bytesConsumed: consumed,
    decodedBytes: file.size,
    tail,
    problems: totals.problems,
    magicFalsePositives: []
  };
}
async function readZstd(file, handle, reader, chunkBytes, options) {
  const requested = options.decoder ?? "auto";
  const name = requested === "auto" ? autoDecoderName(options.needsFrames ?? false) : requested;
  if (name === "zstd-cli" && options.needsFrames) throw new DecoderUnavailableError('decoder "zstd-cli" decodes a run of frames at a time and cannot report frames one by one');
  const cli = name === "zstd-cli" ? findZstdCli() : null;
  if (name === "zstd-cli" && cli === null) throw new DecoderUnavailableError('decoder "zstd-cli" is not available: no zstd command on PATH');
  const walk = new FrameBatches(new ChunkReader(handle, file.size, chunkBytes, cli === null, options.onProgress), options.magicScan === true, cli === null);
  const tally = { checked: 0, decodedBytes: 0 };
  const sink = { reader, tally, onFrame: options.onFrame };
  let fallbackUsed = false;
  if (cli !== null) {
    fallbackUsed = await decodeBatchesWithZstdCli(walk.batches(), cli, sink, { onRefusal: requested === "auto" ? "fzstd" : "bisect", flush: options.flush });
  } else {
    const decoder = await openFrameDecoder(requested === "auto" ? "auto" : name);
    try {
      const run = new FrameRun((bytes) => Buffer.allocUnsafe(bytes));
      for await (const batch of walk.batches()) {
        decodeBatch(batch, decoder, sink, run);
        await options.flush?.();
      }
    } finally {
      decoder.close();
    }
  }
  const totals = reader.finish();
  const problems = [...totals.problems];
  const stop = walk.stop;
  if (stop.kind === "corrupt") problems.push({ kind: "corrupt-structure", offset: stop.offset, message: describeFrameStop(stop, file.size) });
  let tail = null;
  if (stop.kind === "incomplete" && walk.tailBytes !== null) {
    const torn = walk.tailBytes;
    const recoverable = options.recoverTail === false ? null : recoverableLines(torn);
    tail = { start: stop.start, bytes: torn.length, description: describeFrameStop(stop, file.size), stop, recoverableLines: recoverable };
  }
  return {
    file,
    decoder: name,
    fallbackDecoder: fallbackUsed ? "fzstd" : null,
    header: totals.header,
    headerText: totals.headerText,
    lines: totals.lines,
    events: totals.events,
    firstSeq: totals.firstSeq,
    lastSeq: totals.lastSeq,
    frames: walk.frames,
    checkedFrames: tally.checked,
    bytesConsumed: walk.consumed,
    decodedBytes: tally.decodedBytes,
    tail,
    problems,
    magicFalsePositives: walk.falsePositives
  };
}

// src/log/session-roots.ts
import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

// src/log/session-summary.ts
var TITLE_CHARS = 60;
var REPLACE_MARK = '"surfaceOp":{';
var SummaryBuilder = class {
  title = null;
  firstPrompt = null;
  turns = 0;
  failed = 0;
  interrupted = 0;
  byAction = Object.fromEntries(TOMBSTONE_ACTIONS.map((action) => [action, 0]));
  restores = 0;
  /** Tombstones read so far, by seq, for recognising the restores that undo them. */
  tombstoneEvents = /* @__PURE__ */ new Map();
  checkpoints = 0;
  prunes = 0;
  other = 0;
  lastTime = null;
  /**
   * Whether a stored line must be parsed (pass as the reader's `parse` option).
   * @param type - event type or row tag from the line prefix.
   * @param text - the stored line.
   */
  wants(type, text) {
    switch (type) {
      case "session/title":
      case "turn/start":
      case "turn/end":
        return true;
      case "user/message":
        return this.firstPrompt === null || text.includes(REPLACE_MARK);
      case "assistant/message":
      case "tool/result":
        return text.includes(REPLACE_MARK);
      default:
        return false;
    }
  }
  /**
   * Take one record.
   * @param record - from the log reader; records without a parsed `value` are skipped.
   */
  add(record) {
    const event = record.value;
    if (!isRecord(event)) return;
    if (typeof event.time === "number") this.lastTime = event.time;
    const data = isRecord(event.data) ? event.data : {};
    switch (event.type) {
      case "session/title":
        if (typeof data.title === "string" && data.title.trim() !== "") this.title = data.title.trim();
        return;
      case "turn/start":
        this.turns++;
        return;
      case "turn/end": {
        const kind = isRecord(data.reason) ? data.reason.kind : void 0;
        if (kind === "error") this.failed++;
        else if (kind === "interrupted" || kind === "aborted") this.interrupted++;
        return;
      }
      default:
        break;
    }
    if (event.type !== "user/message" && event.type !== "assistant/message" && event.type !== "tool/result") return;
    if (readReplaceOp(event.surfaceOp) === null) {
      if (this.firstPrompt === null && event.type === "user/message" && classifyNode(event) === "user") {
        const text = plainText(contentOf(event)).replace(/\s+/g, " ").trim();
        if (text) this.firstPrompt = text.length > TITLE_CHARS ? text.slice(0, TITLE_CHARS) + "…" : text;
      }
      return;
    }
    const tombstone = readTombstone(event);
    if (tombstone !== null) {
      this.byAction[tombstone.action]++;
      this.tombstoneEvents.set(event.seq, event);
    } else if (event.type === "user/message" && readRestore(event, (seq) => this.tombstoneEvents.get(seq)) !== null) this.restores++;
    else if (event.type === "tool/result") this.prunes++;
    else if (event.type === "user/message" && classifyNode(event) === "checkpoint") this.checkpoints++;
    else this.other++;
  }
  /** The summary so far. */
  result() {
    const tombstones = TOMBSTONE_ACTIONS.reduce((n, action) => n + this.byAction[action], 0);
    return {
      title: this.title,
      firstPrompt: this.firstPrompt,
      turns: this.turns,
      failedTurns: this.failed,
      interruptedTurns: this.interrupted,
      tombstones,
      tombstonesByAction: { ...this.byAction },
      restores: this.restores,
      checkpoints: this.checkpoints,
      prunes: this.prunes,
      otherReplacements: this.other,
      lastTime: this.lastTime
    };
  }
};

// src/log/session-roots.ts
var DSH_HOME_RULE = "$DSH_HOME, or ~/.dsh when DSH_HOME is unset";
var SESSIONS_ROOT_RULE = "$DSH_HOME/sessions, or ~/.dsh/sessions when DSH_HOME is unset";
function defaultSessionsRoot(env = process.env) {
  const fromEnv = env.DSH_HOME;
  const home = fromEnv !== void 0 && fromEnv.trim().length > 0 ? fromEnv : "~/.dsh";
  const expanded = home === "~" ? homedir() : home.startsWith("~/") || home.startsWith("~\\") ? join(homedir(), home.slice(2)) : home;
  return join(resolve(expanded), "sessions");
}
var ROOT_DEPTH = 3;
async function findSessionLogs(root, sinceMs) {
  const logs = [];
  const skipped = [];
  const walk = async (dir, depth) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      skipped.push({ path: dir, message: error.message });
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < ROOT_DEPTH - 1) await walk(path, depth + 1);
      else if (entry.isFile() && LOG_FILE_NAMES.includes(entry.name)) {
        try {
          const info = await stat(path);
          if (sinceMs === void 0 || info.mtimeMs >= sinceMs) logs.push({ path, size: info.size, mtimeMs: info.mtimeMs });
        } catch (error) {
          skipped.push({ path, message: error.message });
        }
      }
    }
  };
  await walk(root, 0);
  logs.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { logs, skipped };
}
async function summarizeRoot(root, options = {}) {
  const { logs, skipped } = await findSessionLogs(root, options.sinceMs);
  const entries = [];
  let bytes = 0;
  for (const [i, log] of logs.entries()) {
    entries.push(await summarizeLog(log, options.decoder ?? "auto"));
    bytes += log.size;
    options.onProgress?.(i + 1, logs.length, bytes);
  }
  return { entries, skipped };
}
async function summarizeLog(log, decoder) {
  const builder = new SummaryBuilder();
  let file;
  try {
    file = await resolveSessionLog(log.path);
    const read = await readSessionLog(file, { decoder, parse: (type, text) => builder.wants(type, text), onRecord: (record) => builder.add(record), recoverTail: false });
    return { ...log, header: read.header, events: read.events, summary: builder.result(), tail: read.tail, problems: read.problems, error: null };
  } catch (error) {
    if (error instanceof DecoderUnavailableError) throw error;
    return { ...log, header: null, events: 0, summary: null, tail: null, problems: [], error: error.message };
  }
}

// scripts/support/arguments.ts
import { parseArgs } from "node:util";
var COMMON_OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" }
};
var DECODER_OPTION = { decoder: { type: "string" } };
function parseCli(argv, options) {
  const args = joinOptionValues(argv, options);
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    if (!Object.hasOwn(options, token.name)) throw new OptionError(`unknown option ${token.rawName}`);
    if (options[token.name].type === "boolean" && token.value !== void 0) throw new OptionError(`${token.rawName} takes no value, got ${JSON.stringify(token.value)}`);
  }
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error.message);
  }
}
function joinOptionValues(argv, options) {
  const takesValue = new Set(Object.entries(options).filter(([, o]) => o.type === "string").map(([name]) => name));
  const isOption = (arg) => {
    if (arg.startsWith("--")) return Object.hasOwn(options, arg.slice(2).split("=")[0]);
    return arg.length === 2 && arg[0] === "-" && Object.values(options).some((o) => o.short === arg[1]);
  };
  const out2 = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      out2.push(...argv.slice(i));
      break;
    }
    const name = arg.startsWith("--") ? arg.slice(2) : null;
    if (name === null || !takesValue.has(name)) {
      out2.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next === void 0 || next === "--" || isOption(next)) throw new OptionValueError(name, null);
    out2.push(`--${name}=${next}`);
    i++;
  }
  return out2;
}
function parseOneTarget(argv, options, what) {
  const { values, positionals } = parseCli(argv, options);
  if (values.help === true) return { values, target: null };
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? `missing ${what}` : `expected one path (${what}), got ${positionals.length}`);
  return { values, target: positionals[0] };
}
function parseRootTarget(argv, options, env = process.env) {
  const { values, positionals } = parseCli(argv, options);
  if (values.help === true) return { values, root: null, defaulted: false };
  if (positionals.length > 1) throw new UsageError(`expected at most one path (the sessions root), got ${positionals.length}`);
  const given = positionals[0];
  return { values, root: given ?? defaultSessionsRoot(env), defaulted: given === void 0 };
}

export {
  DECODER_NAMES,
  createFzstdDecoder,
  hasZlibZstd,
  createZlibOneshotDecoder,
  findZstdCli,
  tailAt,
  readSessionLog,
  DSH_HOME_RULE,
  SESSIONS_ROOT_RULE,
  summarizeRoot,
  OptionValueError,
  decoderOption,
  hoursOption,
  limitOption,
  COMMON_OPTIONS,
  DECODER_OPTION,
  parseCli,
  parseOneTarget,
  parseRootTarget,
  EXIT,
  runCommand,
  runMain,
  ChunkedOutput,
  out
};
