"""What the learning loop keeps in a workspace: training runs, model versions (one active at
most, so a bad model can be rolled back), the history of ensemble weights, and settings."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .database import Database
from .documents import dump_json
from .errors import RecordNotFound
from .models import EnsembleWeights, ModelVersion, Setting, TrainingRun, utc_now
from .rows import ModelVersionRow, TrainingRunRow

TRAINING_RUNNING = "running"


class LearningRepository:
    _db: Database

    # ----------------------------------------------------------- model versions

    def register_model_version(
        self,
        name: str,
        path: str,
        metrics: dict,
        *,
        parent: str | None = None,
        training_run_id: int | None = None,
    ) -> int:
        """Record a trained model; it becomes active only through ``activate_model_version``."""
        try:
            with self._db.writing() as session:
                if training_run_id is not None and session.get(TrainingRun, training_run_id) is None:
                    raise RecordNotFound(f"no training run with id {training_run_id}")
                version = ModelVersion(
                    name=name,
                    path=str(path),
                    metrics_json=dump_json(metrics),
                    parent=parent,
                    training_run_id=training_run_id,
                    active=False,
                    created_at=utc_now(),
                )
                session.add(version)
                session.flush()
                return version.id
        except IntegrityError:
            raise ValueError(f"a model version named {name!r} already exists") from None

    def list_model_versions(self) -> list[ModelVersionRow]:
        with self._db.reading() as session:
            versions = session.scalars(select(ModelVersion).order_by(ModelVersion.id))
            return [_model_version_row(v) for v in versions]

    def activate_model_version(self, model_version_id: int) -> None:
        """Make one version the active one; activating an older version is the rollback."""
        with self._db.writing() as session:
            if session.get(ModelVersion, model_version_id) is None:
                raise RecordNotFound(f"no model version with id {model_version_id}")
            # Clear first: the partial unique index allows one active row at any moment.
            session.execute(update(ModelVersion).where(ModelVersion.active.is_(True)).values(active=False))
            session.execute(
                update(ModelVersion).where(ModelVersion.id == model_version_id).values(active=True)
            )

    def deactivate_model_versions(self) -> None:
        """Go back to the shipped base model: no trained version is active."""
        with self._db.writing() as session:
            session.execute(update(ModelVersion).where(ModelVersion.active.is_(True)).values(active=False))

    def active_model_version(self) -> ModelVersionRow | None:
        with self._db.reading() as session:
            version = session.scalars(select(ModelVersion).where(ModelVersion.active.is_(True))).first()
            return _model_version_row(version) if version is not None else None

    # ------------------------------------------------------------ training runs

    def start_training_run(self, settings: dict) -> int:
        with self._db.writing() as session:
            run = TrainingRun(
                settings_json=dump_json(settings), status=TRAINING_RUNNING, started_at=utc_now()
            )
            session.add(run)
            session.flush()
            return run.id

    def finish_training_run(self, training_run_id: int, *, status: str, metrics: dict) -> None:
        with self._db.writing() as session:
            run = session.get(TrainingRun, training_run_id)
            if run is None:
                raise RecordNotFound(f"no training run with id {training_run_id}")
            run.status = status
            run.metrics_json = dump_json(metrics)
            run.finished_at = utc_now()

    def list_training_runs(self) -> list[TrainingRunRow]:
        with self._db.reading() as session:
            return [
                TrainingRunRow(
                    id=r.id,
                    settings=json.loads(r.settings_json),
                    status=r.status,
                    metrics=json.loads(r.metrics_json) if r.metrics_json is not None else None,
                    started_at=r.started_at,
                    finished_at=r.finished_at,
                )
                for r in session.scalars(select(TrainingRun).order_by(TrainingRun.id))
            ]

    # --------------------------------------------------------- ensemble weights

    def save_ensemble_weights(
        self,
        weights: dict[str, float],
        *,
        n_documents: int,
        category_weights: dict[str, dict[str, float]] | None = None,
    ) -> None:
        """One fit: overall weights per member and, optionally, per member and category
        ({member: {"DATE": 0.7, ...}})."""
        by_cat = (
            dump_json({str(m): {str(c): float(v) for c, v in row.items()} for m, row in category_weights.items()})
            if category_weights is not None
            else None
        )
        with self._db.writing() as session:
            session.add(
                EnsembleWeights(
                    weights_json=dump_json({str(k): float(v) for k, v in weights.items()}),
                    category_weights_json=by_cat,
                    n_documents=int(n_documents),
                    created_at=utc_now(),
                )
            )

    def ensemble_weight_history(self) -> list[tuple[datetime, dict[str, float], int]]:
        """Oldest first; the last entry is the weights in use."""
        with self._db.reading() as session:
            return [
                (w.created_at, json.loads(w.weights_json), w.n_documents)
                for w in session.scalars(select(EnsembleWeights).order_by(EnsembleWeights.id))
            ]

    def ensemble_category_weights(self) -> dict[str, dict[str, float]] | None:
        """The per-category weights of the latest fit ({member: {category: weight}}), or
        None when the latest fit has none (or nothing was fitted)."""
        with self._db.reading() as session:
            last = session.scalars(select(EnsembleWeights).order_by(EnsembleWeights.id.desc()).limit(1)).first()
            if last is None or last.category_weights_json is None:
                return None
            return json.loads(last.category_weights_json)

    # ----------------------------------------------------------------- settings

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._db.reading() as session:
            setting = session.get(Setting, key)
            return json.loads(setting.value_json) if setting is not None else default

    def set_setting(self, key: str, value: Any) -> None:
        encoded = dump_json(value)  # fails before the transaction on values JSON cannot hold
        with self._db.writing() as session:
            setting = session.get(Setting, key)
            if setting is None:
                session.add(Setting(key=key, value_json=encoded, updated_at=utc_now()))
            else:
                setting.value_json, setting.updated_at = encoded, utc_now()


def _model_version_row(version: ModelVersion) -> ModelVersionRow:
    return ModelVersionRow(
        id=version.id,
        name=version.name,
        path=version.path,
        metrics=json.loads(version.metrics_json),
        parent=version.parent,
        active=bool(version.active),
        created_at=version.created_at,
        training_run_id=version.training_run_id,
    )
