#include "hal/driver_config.h"

#include "acl/acl_base_rt.h"
#include "base/parse_uint.h"

namespace npurt::hal {

void DriverConfig::Set(std::string key, Setting setting) { settings_[std::move(key)] = std::move(setting); }

void DriverConfig::SetText(std::string key, std::string text, std::string origin) {
  Setting s;
  s.text = std::move(text);
  s.origin = std::move(origin);
  s.error_code = ACL_ERROR_INVALID_PARAM;
  s.form = Form::kText;
  Set(std::move(key), std::move(s));
}

const DriverConfig::Setting* DriverConfig::Find(std::string_view key) const {
  auto it = settings_.find(key);
  return it != settings_.end() ? &it->second : nullptr;
}

Status DriverConfig::ReadUint(std::string_view key, uint64_t min, uint64_t max, uint64_t* value) const {
  const Setting* s = Find(key);
  if (s == nullptr) return Status::Ok();
  uint64_t v = 0;
  const bool numeric = s->form == Form::kText || s->form == Form::kNumber;
  if (!numeric || !ParseDecimalUint(s->text, &v) || v < min || v > max) {
    return Err(s->error_code, "{} is '{}', not an integer in [{}, {}]", s->origin, s->text, min, max);
  }
  *value = v;
  return Status::Ok();
}

Status DriverConfig::ReadString(std::string_view key, std::string* value) const {
  const Setting* s = Find(key);
  if (s == nullptr) return Status::Ok();
  if (s->form != Form::kText && s->form != Form::kString) {
    return Err(s->error_code, "{} must be a string, not {}", s->origin, s->text);
  }
  *value = s->text;
  return Status::Ok();
}

Status DriverConfig::ReadBool(std::string_view key, bool* value) const {
  const Setting* s = Find(key);
  if (s == nullptr) return Status::Ok();
  const bool text = s->form == Form::kText;
  if ((s->form == Form::kBool || text) && s->text == "true") {
    *value = true;
  } else if ((s->form == Form::kBool || text) && s->text == "false") {
    *value = false;
  } else if (text && (s->text == "1" || s->text == "0")) {
    *value = s->text == "1";
  } else {
    return Err(s->error_code, "{} is '{}', not {}", s->origin, s->text, text ? "1, 0, true or false" : "true or false");
  }
  return Status::Ok();
}

}  // namespace npurt::hal
