#include "dvpp/image.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace npurt::dvpp {
namespace {

// Byte offsets of Y0, Y1, U, V inside a 4-byte pixel pair of the packed YUV422 formats.
struct Packed422 {
  int y0, y1, u, v;
};
Packed422 Packed422Order(uint32_t format) {
  switch (format) {
    case kUyvy422: return {1, 3, 0, 2};
    case kYvyu422: return {0, 2, 3, 1};
    case kVyuy422: return {1, 3, 2, 0};
    default: return {0, 2, 1, 3};  // YUYV
  }
}

// Byte offsets of R, G, B and A (-1: none) in a pixel of the RGB formats.
struct RgbOrder {
  int r, g, b, a;
};
RgbOrder RgbOrderOf(uint32_t format) {
  switch (format) {
    case kBgr888: return {2, 1, 0, -1};
    case kArgb8888: return {1, 2, 3, 0};
    case kAbgr8888: return {3, 2, 1, 0};
    case kRgba8888: return {0, 1, 2, 3};
    case kBgra8888: return {2, 1, 0, 3};
    default: return {0, 1, 2, -1};  // RGB888
  }
}

uint8_t Clamp8(double v) { return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L)); }

Plane ResizePlane(const Plane& p, uint32_t w, uint32_t h, Interpolation how) {
  if (p.width == w && p.height == h) return p;
  Plane out(w, h);
  const double scale_x = static_cast<double>(p.width) / w, scale_y = static_cast<double>(p.height) / h;
  if (how == Interpolation::kNearest) {
    for (uint32_t y = 0; y < h; ++y) {
      const uint32_t sy = std::min(static_cast<uint32_t>(std::floor(y * scale_y)), p.height - 1);
      for (uint32_t x = 0; x < w; ++x) {
        out.at(x, y) = p.at(std::min(static_cast<uint32_t>(std::floor(x * scale_x)), p.width - 1), sy);
      }
    }
    return out;
  }
  // Pixel centres aligned: source coordinate (d + 0.5) * scale - 0.5, clamped to the picture.
  const auto source = [](uint32_t d, double scale, uint32_t n, uint32_t* i0, uint32_t* i1, double* a) {
    const double f = std::clamp((d + 0.5) * scale - 0.5, 0.0, static_cast<double>(n - 1));
    *i0 = static_cast<uint32_t>(f);
    *i1 = std::min(*i0 + 1, n - 1);
    *a = f - *i0;
  };
  std::vector<uint32_t> x0(w), x1(w);
  std::vector<double> ax(w);
  for (uint32_t x = 0; x < w; ++x) source(x, scale_x, p.width, &x0[x], &x1[x], &ax[x]);
  for (uint32_t y = 0; y < h; ++y) {
    uint32_t y0 = 0, y1 = 0;
    double ay = 0;
    source(y, scale_y, p.height, &y0, &y1, &ay);
    for (uint32_t x = 0; x < w; ++x) {
      const double top = p.at(x0[x], y0) * (1 - ax[x]) + p.at(x1[x], y0) * ax[x];
      const double bottom = p.at(x0[x], y1) * (1 - ax[x]) + p.at(x1[x], y1) * ax[x];
      out.at(x, y) = Clamp8(top * (1 - ay) + bottom * ay);
    }
  }
  return out;
}

// A chroma plane at full resolution (each sample repeated over its sx x sy pixels).
Plane Upsample(const Plane& c, uint32_t w, uint32_t h, int sx, int sy) {
  Plane out(w, h);
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) out.at(x, y) = c.at(x / static_cast<uint32_t>(sx), y / static_cast<uint32_t>(sy));
  }
  return out;
}

// A full-resolution plane averaged over sx x sy blocks (the blocks cut by the picture's edge over what they hold).
Plane Downsample(const Plane& full, int sx, int sy) {
  Plane out(ChromaSide(full.width, sx), ChromaSide(full.height, sy));
  for (uint32_t cy = 0; cy < out.height; ++cy) {
    for (uint32_t cx = 0; cx < out.width; ++cx) {
      uint32_t sum = 0, n = 0;
      for (uint32_t y = cy * sy; y < std::min(full.height, (cy + 1) * sy); ++y) {
        for (uint32_t x = cx * sx; x < std::min(full.width, (cx + 1) * sx); ++x) {
          sum += full.at(x, y);
          ++n;
        }
      }
      out.at(cx, cy) = static_cast<uint8_t>((sum + n / 2) / n);
    }
  }
  return out;
}

Image YuvToRgb(const Image& in) {
  Image out;
  out.width = in.width;
  out.height = in.height;
  out.yuv = false;
  const Plane& y = in.planes[0];
  if (!in.has_chroma()) {
    out.planes = {y, y, y};
    return out;
  }
  const Plane u = Upsample(in.planes[1], in.width, in.height, in.sx, in.sy);
  const Plane v = Upsample(in.planes[2], in.width, in.height, in.sx, in.sy);
  Plane r(in.width, in.height), g(in.width, in.height), b(in.width, in.height);
  for (size_t i = 0; i < y.px.size(); ++i) {
    const double Y = y.px[i], U = u.px[i] - 128.0, V = v.px[i] - 128.0;
    r.px[i] = Clamp8(Y + 1.402 * V);
    g.px[i] = Clamp8(Y - 0.344136 * U - 0.714136 * V);
    b.px[i] = Clamp8(Y + 1.772 * U);
  }
  out.planes = {std::move(r), std::move(g), std::move(b)};
  return out;
}

// Full-resolution Y, U, V (sx = sy = 1).
Image RgbToYuv(const Image& in) {
  Image out;
  out.width = in.width;
  out.height = in.height;
  out.yuv = true;
  out.sx = out.sy = 1;
  const Plane &r = in.planes[0], &g = in.planes[1], &b = in.planes[2];
  Plane y(in.width, in.height), u(in.width, in.height), v(in.width, in.height);
  for (size_t i = 0; i < r.px.size(); ++i) {
    const double R = r.px[i], G = g.px[i], B = b.px[i];
    y.px[i] = Clamp8(0.299 * R + 0.587 * G + 0.114 * B);
    u.px[i] = Clamp8(-0.168736 * R - 0.331264 * G + 0.5 * B + 128.0);
    v.px[i] = Clamp8(0.5 * R - 0.418688 * G - 0.081312 * B + 128.0);
  }
  out.planes = {std::move(y), std::move(u), std::move(v)};
  return out;
}

}  // namespace

Image Unpack(const Picture& pic, const uint8_t* bytes, const Region& r) {
  const FormatInfo& f = *FindFormat(pic.format);
  const uint32_t w = r.width(), h = r.height();
  const size_t ws = pic.width_stride;
  Image img;
  img.width = w;
  img.height = h;
  img.yuv = f.yuv;
  if (f.semiplanar || pic.format == kYuv400) {
    Plane y(w, h);
    for (uint32_t row = 0; row < h; ++row) std::memcpy(&y.at(0, row), bytes + (r.top + row) * ws + r.left, w);
    img.planes.push_back(std::move(y));
    if (!f.semiplanar) return img;
    img.sx = f.chroma_sx;
    img.sy = f.chroma_sy;
    const uint8_t* chroma = bytes + ws * pic.height_stride;
    const size_t crow = ws * 2 / static_cast<size_t>(f.chroma_sx);
    const uint32_t x0 = r.left / static_cast<uint32_t>(f.chroma_sx), y0 = r.top / static_cast<uint32_t>(f.chroma_sy);
    Plane u(ChromaSide(w, f.chroma_sx), ChromaSide(h, f.chroma_sy)), v(u.width, u.height);
    for (uint32_t cy = 0; cy < u.height; ++cy) {
      const uint8_t* line = chroma + (y0 + cy) * crow + size_t{x0} * 2;
      for (uint32_t cx = 0; cx < u.width; ++cx) {
        u.at(cx, cy) = line[cx * 2 + (f.uv_order ? 0 : 1)];
        v.at(cx, cy) = line[cx * 2 + (f.uv_order ? 1 : 0)];
      }
    }
    img.planes.push_back(std::move(u));
    img.planes.push_back(std::move(v));
    return img;
  }
  if (f.yuv && f.chroma_sx == 2) {  // packed YUV422: pixel pairs of 4 bytes
    const Packed422 o = Packed422Order(pic.format);
    img.sx = 2;
    img.sy = 1;
    Plane y(w, h), u(ChromaSide(w, 2), h), v(u.width, h);
    for (uint32_t row = 0; row < h; ++row) {
      const uint8_t* line = bytes + (r.top + row) * ws;
      for (uint32_t x = 0; x < w; ++x) {
        const uint32_t px = r.left + x;
        const uint8_t* pair = line + (px / 2) * 4;
        y.at(x, row) = pair[px % 2 == 0 ? o.y0 : o.y1];
        if (x % 2 == 0) {
          u.at(x / 2, row) = pair[o.u];
          v.at(x / 2, row) = pair[o.v];
        }
      }
    }
    img.planes = {std::move(y), std::move(u), std::move(v)};
    return img;
  }
  // Packed, one sample per channel per pixel: YUV444 (Y, U, V) or an RGB order.
  const int bpp = f.bytes_per_pixel;
  const RgbOrder o = f.yuv ? RgbOrder{0, 1, 2, -1} : RgbOrderOf(pic.format);
  const int offsets[4] = {o.r, o.g, o.b, o.a};
  const int channels = o.a >= 0 ? 4 : 3;
  if (f.yuv) img.sx = img.sy = 1;
  for (int c = 0; c < channels; ++c) {
    Plane p(w, h);
    for (uint32_t row = 0; row < h; ++row) {
      const uint8_t* line = bytes + (r.top + row) * ws + size_t{r.left} * bpp;
      for (uint32_t x = 0; x < w; ++x) p.at(x, row) = line[x * bpp + offsets[c]];
    }
    img.planes.push_back(std::move(p));
  }
  return img;
}

void Pack(const Image& img, const Picture& pic, uint8_t* bytes, const Region& r) {
  const FormatInfo& f = *FindFormat(pic.format);
  const uint32_t w = r.width(), h = r.height();
  const size_t ws = pic.width_stride;
  if (f.semiplanar || pic.format == kYuv400) {
    const Plane& y = img.planes[0];
    for (uint32_t row = 0; row < h; ++row) std::memcpy(bytes + (r.top + row) * ws + r.left, y.px.data() + size_t{row} * w, w);
    if (!f.semiplanar) return;
    uint8_t* chroma = bytes + ws * pic.height_stride;
    const size_t crow = ws * 2 / static_cast<size_t>(f.chroma_sx);
    const uint32_t x0 = r.left / static_cast<uint32_t>(f.chroma_sx), y0 = r.top / static_cast<uint32_t>(f.chroma_sy);
    const Plane &u = img.planes[1], &v = img.planes[2];
    for (uint32_t cy = 0; cy < u.height; ++cy) {
      uint8_t* line = chroma + (y0 + cy) * crow + size_t{x0} * 2;
      for (uint32_t cx = 0; cx < u.width; ++cx) {
        line[cx * 2 + (f.uv_order ? 0 : 1)] = u.at(cx, cy);
        line[cx * 2 + (f.uv_order ? 1 : 0)] = v.at(cx, cy);
      }
    }
    return;
  }
  if (f.yuv && f.chroma_sx == 2) {
    const Packed422 o = Packed422Order(pic.format);
    const Plane &y = img.planes[0], &u = img.planes[1], &v = img.planes[2];
    for (uint32_t row = 0; row < h; ++row) {
      uint8_t* line = bytes + (r.top + row) * ws;
      for (uint32_t x = 0; x < w; ++x) {
        const uint32_t px = r.left + x;
        uint8_t* pair = line + (px / 2) * 4;
        pair[px % 2 == 0 ? o.y0 : o.y1] = y.at(x, row);
        if (x % 2 == 0) {
          pair[o.u] = u.at(x / 2, row);
          pair[o.v] = v.at(x / 2, row);
        }
      }
    }
    return;
  }
  const int bpp = f.bytes_per_pixel;
  const RgbOrder o = f.yuv ? RgbOrder{0, 1, 2, -1} : RgbOrderOf(pic.format);
  const int offsets[4] = {o.r, o.g, o.b, o.a};
  for (int c = 0; c < 4; ++c) {
    if (offsets[c] < 0) continue;
    const bool opaque = c == 3 && img.planes.size() < 4;  // no alpha in the source: opaque
    for (uint32_t row = 0; row < h; ++row) {
      uint8_t* line = bytes + (r.top + row) * ws + size_t{r.left} * bpp;
      for (uint32_t x = 0; x < w; ++x) line[x * bpp + offsets[c]] = opaque ? 255 : img.planes[c].at(x, row);
    }
  }
}

Image Resize(const Image& in, uint32_t width, uint32_t height, Interpolation how) {
  Image out = in;
  out.width = width;
  out.height = height;
  for (size_t i = 0; i < in.planes.size(); ++i) {
    const bool chroma = in.has_chroma() && i > 0;
    out.planes[i] = ResizePlane(in.planes[i], chroma ? ChromaSide(width, in.sx) : width,
                                chroma ? ChromaSide(height, in.sy) : height, how);
  }
  return out;
}

Image ConvertTo(Image in, const FormatInfo& target) {
  if (!target.yuv) return in.yuv ? YuvToRgb(in) : in;
  Image out = in.yuv ? std::move(in) : RgbToYuv(in);
  if (target.chroma_sx == 0) {  // YUV400: the luma alone
    out.planes.resize(1);
    out.sx = out.sy = 0;
    return out;
  }
  if (!out.has_chroma()) {  // grey: neutral chroma
    out.planes.resize(1);
    out.planes.emplace_back(ChromaSide(out.width, target.chroma_sx), ChromaSide(out.height, target.chroma_sy), 128);
    out.planes.push_back(out.planes[1]);
  } else if (out.sx != target.chroma_sx || out.sy != target.chroma_sy) {
    for (size_t i = 1; i < 3; ++i) {
      out.planes[i] = Downsample(Upsample(out.planes[i], out.width, out.height, out.sx, out.sy), target.chroma_sx,
                                 target.chroma_sy);
    }
  }
  out.sx = target.chroma_sx;
  out.sy = target.chroma_sy;
  return out;
}

}  // namespace npurt::dvpp
