//===- ArchFuzzer.cpp - libFuzzer target: architecture descriptions -------===//
//
// Input: any bytes, read as a ktarch description. An accepted module's
// devices are modelled with ArchModel::build (the verifier may already have
// done so; building again is what `ktflow arch` and the compiler do), and
// the model's queries that walk the instance graph are exercised: a route
// from every memory to every compute unit and back, and the roofline of the
// traffic those routes carry.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchOps.h"

using namespace ktflow::arch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::OwningOpRef<mlir::ModuleOp> module = ktflow::fuzz::parseFuzzInput(data, size);
  if (!module)
    return 0;
  for (auto device : module->getOps<ktflow::ktarch::DeviceOp>()) {
    std::unique_ptr<ArchModel> model = ArchModel::build(device);
    if (!model)
      continue;
    Workload workload;
    for (NodeId memory : model->memories()) {
      for (NodeId unit : model->computeUnits()) {
        if (auto in = model->routeTo(NodeInstance{memory, 0}, unit))
          model->addRouteTraffic(workload, *in, ktflow::Bytes(1 << 20));
        if (auto out = model->routeFrom(unit, NodeInstance{memory, 0}))
          model->addRouteTraffic(workload, *out, ktflow::Bytes(1 << 20));
      }
    }
    llvm::Expected<RooflineBound> bound = model->roofline(workload);
    if (!bound)
      llvm::consumeError(bound.takeError());
  }
  return 0;
}
