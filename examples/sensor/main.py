# A board that learns its sensors' normal covariance and flags readings (purepca's sensor profile).
#
# Copy to the board:  python -m purepca.micro build OUT --profile sensor --mpy
#                     mpremote cp -r OUT/purepca :lib/ + cp main.py :
# Replace read_sensors() with your board's readings (ADC channels, an I2C sensor, ...).
#
# First boot: learns from N readings streamed one at a time (the board never holds them), logs
# them to LOG (so the host can fit the same model: host.py), and saves the model to MODEL.
# Later boots: loads MODEL (written here or by host.py) and flags every reading whose Hotelling
# T² or SPE (Q) is above its control limit at level ALPHA.
from purepca.sensor import Streaming, fit, load_model

N = 500          # readings to learn from
K = 2            # components kept
ALPHA = 0.01     # the limits' level: about 1 normal reading in 100 is flagged by each
MODEL = "model.json"
LOG = "readings.csv"


def read_sensors():
    """One reading of the board's sensors: a list of numbers (replace with your own)."""
    raise NotImplementedError("read_sensors(): return a list of your sensors' values")


def learn(read, n=N, k=K, model_path=MODEL, log_path=LOG):
    """Stream n readings into the moments (logging each to log_path, if given), fit, save."""
    stream = None
    log = open(log_path, "w") if log_path else None
    try:
        for _ in range(n):
            row = read()
            if stream is None:
                stream = Streaming(len(row))
            stream.update(row)
            if log is not None:
                log.write(",".join([repr(float(v)) for v in row]) + "\n")
    finally:
        if log is not None:
            log.close()
    model = fit(stream, k)
    with open(model_path, "w") as fh:
        fh.write(model.to_json())
    return model


def load(model_path=MODEL):
    """The saved model, or None when there is none yet."""
    try:
        with open(model_path) as fh:
            return load_model(fh.read())
    except OSError:
        return None


def watch(model, read, count=None, report=print, alpha=ALPHA):
    """Score readings (count of them, or forever) and report those above a limit; the number flagged."""
    t2_limit, spe_limit = model.t2_limit(alpha), model.spe_limit(alpha)
    flagged = seen = 0
    while count is None or seen < count:
        row = read()
        scores, t2, spe = model.score(row)
        if t2 > t2_limit or spe > spe_limit:
            flagged += 1
            report("FLAG reading %d: T2 %.3g (limit %.3g), SPE %.3g (limit %.3g)" % (seen, t2, t2_limit, spe, spe_limit))
        seen += 1
    return flagged


def main(read=read_sensors, count=None, report=print):
    model = load()
    if model is None:
        model = learn(read)
        report("learned from %d readings: variances %s" % (model.n, model.variance))
    return watch(model, read, count, report)


if __name__ == "__main__":
    main()
