// Not a kernel: the parser stops at the stray token.
func.func @broken( {
