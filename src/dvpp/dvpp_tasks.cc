#include "dvpp/dvpp_tasks.h"

#include <memory>
#include <string>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/external_task.h"
#include "core/memory/memory_ops.h"
#include "dvpp/codecs.h"

namespace npurt::dvpp {
namespace {

const void* Addr(uint64_t a) { return reinterpret_cast<const void*>(a); }

StatusOr<std::vector<uint8_t>> ReadBytes(uint64_t addr, size_t size, const char* what) {
  std::vector<uint8_t> bytes(size);
  NPURT_RETURN_IF_ERROR(core::ReadMemory(Addr(addr), size, bytes.data(), what));
  return bytes;
}

// The picture's whole buffer (its planes with their strides) as it is in device memory now.
StatusOr<std::vector<uint8_t>> ReadPicture(const Picture& pic, const char* what) {
  return ReadBytes(pic.data, PictureBytes(*FindFormat(pic.format), pic.width_stride, pic.height_stride), what);
}

Status WritePicture(const Picture& pic, const std::vector<uint8_t>& bytes, const char* what) {
  return core::WriteMemory(reinterpret_cast<void*>(pic.data), bytes.data(), bytes.size(), what);
}

Region Whole(const Picture& pic) { return Region{0, pic.width - 1, 0, pic.height - 1}; }

// `img` grown to `width` x `height` by repeating its last column and row (an output picture a little larger
// than the decoded one, as the samples' even sizes are).
Image Extend(Image img, uint32_t width, uint32_t height) {
  if (img.width == width && img.height == height) return img;
  Image out = img;
  out.width = width;
  out.height = height;
  for (size_t i = 0; i < img.planes.size(); ++i) {
    const bool chroma = img.has_chroma() && i > 0;
    const Plane& p = img.planes[i];
    Plane q(chroma ? ChromaSide(width, img.sx) : width, chroma ? ChromaSide(height, img.sy) : height);
    for (uint32_t y = 0; y < q.height; ++y) {
      for (uint32_t x = 0; x < q.width; ++x) q.at(x, y) = p.at(std::min(x, p.width - 1), std::min(y, p.height - 1));
    }
    out.planes[i] = std::move(q);
  }
  return out;
}

// Writes a decoded image into the whole of `out` (it must be at least as large; padding repeats the edges).
Status StoreDecoded(Image img, const Picture& out, const char* codec) {
  if (img.width > out.width || img.height > out.height) {
    return Err(ACL_ERROR_INVALID_PARAM, "the {} picture is {}x{}, larger than the {}x{} output picture", codec,
               img.width, img.height, out.width, out.height);
  }
  const FormatInfo& f = *FindFormat(out.format);
  std::vector<uint8_t> bytes(PictureBytes(f, out.width_stride, out.height_stride), 0);
  Pack(ConvertTo(Extend(std::move(img), out.width, out.height), f), out, bytes.data(), Whole(out));
  return WritePicture(out, bytes, "the output picture");
}

struct Task {
  std::string name;
  std::function<Status()> work;
  std::function<void(const Status&)> after;
};

void StartTask(void* arg, core::ExternalCompletion done) {
  auto* task = static_cast<Task*>(arg);
  Status st = task->work();
  if (task->after) task->after(st);
  if (st.ok()) {
    done.Complete(0, "");
  } else {
    done.Complete(ACL_ERROR_RT_AICPU_EXCEPTION, task->name + " failed: " + st.message());
  }
}

void FreeTask(void* arg) { delete static_cast<Task*>(arg); }

}  // namespace

Status RunJpegDecode(const JpegDecodeJob& job) {
  auto file = ReadBytes(job.data, job.size, "the JPEG data");
  if (!file.ok()) return file.status();
  auto img = DecodeJpeg(file.value().data(), file.value().size());
  if (!img.ok()) return img.status();
  return StoreDecoded(std::move(img.value()), job.out, "decoded JPEG");
}

Status RunPngDecode(const PngDecodeJob& job) {
  auto file = ReadBytes(job.data, job.size, "the PNG data");
  if (!file.ok()) return file.status();
  auto img = DecodePng(file.value().data(), file.value().size(), job.out.format == kRgba8888);
  if (!img.ok()) return img.status();
  return StoreDecoded(std::move(img.value()), job.out, "decoded PNG");
}

Status RunJpegEncode(const JpegEncodeJob& job) {
  auto bytes = ReadPicture(job.in, "the input picture");
  if (!bytes.ok()) return bytes.status();
  Image img = Unpack(job.in, bytes.value().data(), Whole(job.in));
  // RGB, packed and 4:4:4 semi-planar inputs are encoded from their own samples; RGB goes through YUV 4:2:0.
  if (!img.yuv) img = ConvertTo(std::move(img), *FindFormat(kYuv420Sp));
  auto jpeg = EncodeJpeg(img, job.quality);
  if (!jpeg.ok()) return jpeg.status();
  if (jpeg.value().size() > job.capacity) {
    return Err(ACL_ERROR_INVALID_PARAM, "the encoded JPEG takes {} bytes, more than the {} of the output buffer "
               "(acldvppJpegPredictEncSize gives a size that always holds it)", jpeg.value().size(), job.capacity);
  }
  NPURT_RETURN_IF_ERROR(core::WriteMemory(reinterpret_cast<void*>(job.data), jpeg.value().data(), jpeg.value().size(),
                                          "the output buffer"));
  *job.size_out = static_cast<uint32_t>(jpeg.value().size());
  return Status::Ok();
}

Status RunVpc(const VpcJob& job) {
  for (const VpcItem& item : job.items) {
    auto in = ReadPicture(item.in, "the input picture");
    if (!in.ok()) return in.status();
    auto out = ReadPicture(item.out, "the output picture");
    if (!out.ok()) return out.status();
    const Image cropped = Unpack(item.in, in.value().data(), item.crop);
    Image sized = Resize(cropped, item.paste.width(), item.paste.height(), job.how);
    Pack(ConvertTo(std::move(sized), *FindFormat(item.out.format)), item.out, out.value().data(), item.paste);
    NPURT_RETURN_IF_ERROR(WritePicture(item.out, out.value(), "the output picture"));
  }
  return Status::Ok();
}

Status SubmitDvppTask(core::Stream* stream, const char* name, std::function<Status()> work,
                      std::function<void(const Status&)> after) {
  auto* task = new Task{name, std::move(work), std::move(after)};
  auto id = core::SubmitExternalWork(stream, &StartTask, task, &FreeTask);
  return id.ok() ? Status::Ok() : id.status();
}

}  // namespace npurt::dvpp
