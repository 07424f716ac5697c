/* An installed-opsplit consumer: 1D no-flux diffusion conserves the sum. */
#include <math.h>
#include <stdio.h>

#include <opsplit/opsplit.h>

int main(void) {
  double c[8] = {0, 0, 1, 4, 2, 0, 0, 1}, before = 0, after = 0;
  opsplit_context ctx = NULL;
  opsplit_field field = NULL;
  opsplit_rd rd = NULL;
  if (opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx) || opsplit_field_create(ctx, 8, 1, 1, 1, OPSPLIT_FLOAT64, &field) ||
      opsplit_rd_create(ctx, 1, &rd) || opsplit_rd_set_diffusion(rd, 0, 1.0) ||
      opsplit_field_upload(field, c, OPSPLIT_LAYOUT_PLANAR) || opsplit_field_component_sum(field, 0, &before) ||
      opsplit_rd_step(rd, field, 0.4, 10) || opsplit_field_component_sum(field, 0, &after)) {
    fprintf(stderr, "c consumer: %s\n", opsplit_last_error_message());
    return 1;
  }
  opsplit_rd_destroy(&rd);
  opsplit_field_destroy(&field);
  opsplit_context_destroy(&ctx);
  if (fabs(after - before) > 1e-13 * before) {
    fprintf(stderr, "c consumer: sum %.17g became %.17g\n", before, after);
    return 1;
  }
  printf("c consumer ok: opsplit %d.%d.%d\n", OPSPLIT_VERSION_MAJOR, OPSPLIT_VERSION_MINOR, OPSPLIT_VERSION_PATCH);
  return 0;
}
