// C entry points of PCPD ensembles.
#include "api/guard.hpp"
#include "core/device_array.hpp"
#include "pcpd/pcpd.hpp"

using namespace opsplit;

namespace {
const char* kPcpd = "opsplit_pcpd";
opsplit_pcpd_s& pcpd_arg(opsplit_pcpd pcpd) { return on_its_device(pcpd, "pcpd", kPcpd); }
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_pcpd_create(opsplit_context ctx, opsplit_pcpd_algorithm algorithm, int64_t L,
                                               int64_t replicas, opsplit_pcpd* pcpd) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_pcpd& out = output(pcpd, "pcpd");
    if (c.is_cuda()) c.device().activate();
    out = make_handle<opsplit_pcpd_s>(c, enum_value(algorithm), L, replicas);
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_create_distributed(opsplit_context ctx, opsplit_pcpd_algorithm algorithm,
                                                           int64_t L, int64_t replicas, const opsplit_group* group,
                                                           opsplit_pcpd* pcpd) {
  return api_guard(__func__, [&] {
    if (group == nullptr) fail_argument("group is NULL");
    const Group agreement(*group);  // not owned: the caller keeps the group if this fails
    const int a = enum_value(algorithm);
    Context* context = nullptr;
    opsplit_pcpd* out_pointer = nullptr;
    agreement.settle(attempt([&] {
                       context = &checked(ctx, "ctx", "opsplit_context");
                       out_pointer = &output(pcpd, "pcpd");
                     }),
                     __func__, {a, L, replicas}, "algorithm, L and replicas");
    Context& c = *context;
    opsplit_pcpd& out = *out_pointer;
    opsplit_pcpd made = nullptr;
    try {
      agreement.settle(attempt([&] {
                         if (c.is_cuda()) c.device().activate();
                         made = make_handle<opsplit_pcpd_s>(c, a, L, replicas, Group(*group));
                       }),
                       __func__);
      made->start_series();
    } catch (...) {
      if (made != nullptr) destroy_handle(made);
      throw;
    }
    made->adopt_group();
    out = made;
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_replicas(opsplit_pcpd pcpd, int64_t* first, int64_t* count) {
  return api_guard(__func__, [&] {
    const opsplit_pcpd_s& p = pcpd_arg(pcpd);
    int64_t& f = output(first, "first");
    int64_t& n = output(count, "count");
    f = p.first_replica(), n = p.local_replicas();
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_destroy(opsplit_pcpd* pcpd) {
  return api_guard(__func__, [&] { destroy_through(pcpd, kPcpd); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_set_probabilities(opsplit_pcpd pcpd, double p, double d) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).set_probabilities(p, d); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_initialize(opsplit_pcpd pcpd, uint64_t seed, double density) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).initialize(seed, density); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_set_points_per_decade(opsplit_pcpd pcpd, int points) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).set_points_per_decade(points); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_run(opsplit_pcpd pcpd, double t_end) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).run(t_end); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_time(opsplit_pcpd pcpd, double* time) {
  return api_guard(__func__, [&] {
    const opsplit_pcpd_s& p = pcpd_arg(pcpd);
    output(time, "time") = p.time();
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_series_length(opsplit_pcpd pcpd, int64_t* length) {
  return api_guard(__func__, [&] {
    const opsplit_pcpd_s& p = pcpd_arg(pcpd);
    output(length, "length") = p.series_length();
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_series(opsplit_pcpd pcpd, opsplit_pcpd_quantity quantity, int64_t length,
                                                   double* times, double* mean, double* standard_error) {
  return api_guard(__func__,
                   [&] { pcpd_arg(pcpd).get_series(enum_value(quantity), length, times, mean, standard_error); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_lattice(opsplit_pcpd pcpd, int64_t replica, uint8_t* sites) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).get_lattice(replica, sites); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_set_lattice(opsplit_pcpd pcpd, int64_t replica, const uint8_t* sites) {
  return api_guard(__func__, [&] { pcpd_arg(pcpd).set_lattice(replica, sites); });
}

OPSPLIT_API opsplit_status opsplit_pcpd_get_lattice_device(opsplit_pcpd pcpd, int64_t replica, uint8_t* sites) {
  return api_guard(__func__, [&] {
    const auto& p = pcpd_arg(pcpd);
    in_host_order(p.context(), [&] { p.get_lattice_device(replica, sites); });
  });
}

OPSPLIT_API opsplit_status opsplit_pcpd_set_lattice_device(opsplit_pcpd pcpd, int64_t replica, const uint8_t* sites) {
  return api_guard(__func__, [&] {
    auto& p = pcpd_arg(pcpd);
    in_host_order(p.context(), [&] { p.set_lattice_device(replica, sites); });
  });
}

}  // extern "C"
