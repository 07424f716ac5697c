/* The README's example: 100 steps of 3D diffusion of a point source. */
#include <stdio.h>
#include <opsplit/opsplit.h>

int main(void) {
  static double c[32][32][32];                  /* c[z][y][x]: Fortran's c(32,32,32) */
  c[16][16][16] = 1.0;
  opsplit_context ctx; opsplit_field f; opsplit_rd rd; double dt, sum;
  if (opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx) ||           /* CUDA if there is a GPU */
      opsplit_field_create(ctx, 32, 32, 32, 1, OPSPLIT_FLOAT64, &f) ||
      opsplit_field_upload(f, c, OPSPLIT_LAYOUT_PLANAR) ||
      opsplit_rd_create(ctx, 1, &rd) || opsplit_rd_set_diffusion(rd, 0, 1.0) ||
      opsplit_rd_max_stable_dt(rd, f, &dt) || opsplit_rd_step(rd, f, 0.9 * dt, 100) ||
      opsplit_field_download(f, c, OPSPLIT_LAYOUT_PLANAR) || opsplit_field_component_sum(f, 0, &sum)) {
    fprintf(stderr, "opsplit: %s\n", opsplit_last_error_message());
    return 1;
  }
  printf("centre %.6f, total %.15f\n", c[16][16][16], sum);   /* no-flux: total stays 1 */
  opsplit_rd_destroy(&rd); opsplit_field_destroy(&f); opsplit_context_destroy(&ctx);
  return 0;
}
