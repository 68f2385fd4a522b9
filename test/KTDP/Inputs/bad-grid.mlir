// Two kernels with malformed grids.
func.func @zero() attributes {grid = [4, 0]} {
  return
}
func.func @four() attributes {grid = [1, 1, 1, 1]} {
  return
}
